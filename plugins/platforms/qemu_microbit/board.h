/* The facts about the BBC micro:bit v1 (nRF51822) as QEMU's microbit models
 * it, that firmware needs at compile time. board.json describes the same
 * board for the host. */
#ifndef LOUPE_BOARD_H
#define LOUPE_BOARD_H

#define LOUPE_BOARD_NAME "qemu_microbit"
/* The nRF51's 16 MHz HFCLK, SysTick's clock in QEMU's nrf51 model. */
#define LOUPE_BOARD_CPU_CLOCK_HZ 16000000u
/* UART0 (nRF51 reference manual, "Instantiation"); the micro:bit wires its
 * USB serial port to P0.24 (TX) and P0.25 (RX). */
#define LOUPE_BOARD_UART0_BASE 0x40002000u
#define LOUPE_BOARD_UART_TX_PIN 24u
#define LOUPE_BOARD_UART_RX_PIN 25u

#endif
