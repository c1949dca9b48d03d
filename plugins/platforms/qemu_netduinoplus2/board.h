/* The facts about the Netduino Plus 2 (STM32F405RG) as QEMU's netduinoplus2
 * models it, that firmware needs at compile time. board.json describes the
 * same board for the host. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "qemu_netduinoplus2"
/* QEMU does not model the RCC: the core always runs at the 168 MHz its
 * SysTick counts (hw/arm/netduinoplus2.c), not at the 16 MHz HSI a real
 * STM32F405 starts on. */
#define LOUPE_BOARD_CPU_CLOCK_HZ 168000000u
/* USART1, the port QEMU connects to the first -serial (RM0090: APB2 at
 * 0x40011000). */
#define LOUPE_BOARD_UART0_BASE 0x40011000u
#define LOUPE_BOARD_HAS_INIT 1

#endif
