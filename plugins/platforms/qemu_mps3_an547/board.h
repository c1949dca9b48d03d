/* The facts about the MPS3 AN547 board (as QEMU's mps3-an547 models it)
 * that firmware needs at compile time. board.json describes the same board
 * for the host: compiler flags, QEMU machine and memory sizes. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "qemu_mps3_an547"
#define LOUPE_BOARD_CPU_CLOCK_HZ 32000000u
/* The Secure alias of UART0 (Non-secure alias 0x49303000): the firmware
 * runs in Secure state, where it stays after reset. */
#define LOUPE_BOARD_UART0_BASE 0x59303000u

#endif
