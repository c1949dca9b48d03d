/* The facts about the nRF52840 DK (nRF52840 Product Specification v1.7)
 * that firmware needs at compile time. board.json describes the same board
 * for the host. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "nrf52840_dk"
/* The nRF52840's core always runs at 64 MHz (from HFINT until the crystal
 * is started, which this firmware does not do). */
#define LOUPE_BOARD_CPU_CLOCK_HZ 64000000u
/* UARTE0, on P0.06 (TX) and P0.08 (RX): the DK's J-Link virtual COM port. */
#define LOUPE_BOARD_UART0_BASE 0x40002000u
#define LOUPE_BOARD_UART_TX_PIN 6u
#define LOUPE_BOARD_UART_RX_PIN 8u
#define LOUPE_BOARD_HAS_INIT 1
#define LOUPE_BOARD_PROFILER_DWT 1
#define LOUPE_BOARD_NO_SEMIHOSTING 1

#endif
