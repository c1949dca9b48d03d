/* The facts about the NUCLEO-L4R5ZI (STM32L4R5ZI, RM0432) that firmware
 * needs at compile time. board.json describes the same board for the host. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "nucleo_l4r5zi"
/* The 4 MHz MSI the STM32L4 starts on; PCLK1, LPUART1's clock, runs at it. */
#define LOUPE_BOARD_CPU_CLOCK_HZ 4000000u
/* LPUART1 (APB1 at 0x40008000), on PG7 (TX) and PG8 (RX), which the
 * Nucleo-144 wires to the ST-LINK's virtual COM port. */
#define LOUPE_BOARD_UART0_BASE 0x40008000u
#define LOUPE_BOARD_UART_IS_LPUART 1
#define LOUPE_BOARD_HAS_INIT 1
#define LOUPE_BOARD_PROFILER_DWT 1
#define LOUPE_BOARD_NO_SEMIHOSTING 1

#endif
