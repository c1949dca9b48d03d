/* The facts about the MPS2 AN505 board (as QEMU's mps2-an505 models it)
 * that firmware needs at compile time. board.json describes the same board
 * for the host: compiler flags, QEMU machine and memory sizes. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "qemu_mps2_an505"
#define LOUPE_BOARD_CPU_CLOCK_HZ 20000000u
/* The Secure alias of UART0 (Non-secure alias 0x40200000): the Cortex-M33
 * leaves reset in Secure state, where the firmware stays. */
#define LOUPE_BOARD_UART0_BASE 0x50200000u

#endif
