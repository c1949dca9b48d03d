/* The facts about the 32F746GDISCOVERY (STM32F746NG, RM0385) that firmware
 * needs at compile time. board.json describes the same board for the host. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "stm32f746g_disco"
/* The 16 MHz HSI the STM32F7 starts on; APB2, USART1's clock, runs at it. */
#define LOUPE_BOARD_CPU_CLOCK_HZ 16000000u
/* USART1 (APB2 at 0x40011000), on PA9 (TX) and PB7 (RX), which the board
 * wires to the ST-LINK's virtual COM port. */
#define LOUPE_BOARD_UART0_BASE 0x40011000u
#define LOUPE_BOARD_HAS_INIT 1
#define LOUPE_BOARD_PROFILER_DWT 1
#define LOUPE_BOARD_NO_SEMIHOSTING 1

#endif
