/* The facts about the MPS2 AN500 board (as QEMU's mps2-an500 models it)
 * that firmware needs at compile time. board.json describes the same board
 * for the host: compiler flags, QEMU machine and memory sizes. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "qemu_mps2_an500"
#define LOUPE_BOARD_CPU_CLOCK_HZ 25000000u
#define LOUPE_BOARD_UART0_BASE 0x40004000u

#endif
