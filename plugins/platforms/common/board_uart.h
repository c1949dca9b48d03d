/* The board's serial port, polled: one driver per kind of UART
 * (plugins/platforms/uarts/<driver>.c, named by board.json's "uart"), all
 * behind these three calls. The firmware (echo tests, the model's RPC
 * server) talks to one host at a time and has nothing else to do while it
 * waits, so no interrupts and no buffering beyond the hardware's own.
 *
 * A driver reads from board.h: LOUPE_BOARD_UART0_BASE (its registers),
 * LOUPE_BOARD_UART_CLOCK_HZ (the clock its baud rate divides, the core
 * clock unless the board says otherwise) and, for the nRF UARTs,
 * LOUPE_BOARD_UART_TX_PIN and LOUPE_BOARD_UART_RX_PIN. The board's own
 * board_init() has enabled the UART's clock and routed its pins. */
#ifndef LOUPE_PLATFORMS_BOARD_UART_H
#define LOUPE_PLATFORMS_BOARD_UART_H

#include <stdint.h>

#include "board.h"

#ifndef LOUPE_BOARD_UART_CLOCK_HZ
#define LOUPE_BOARD_UART_CLOCK_HZ LOUPE_BOARD_CPU_CLOCK_HZ
#endif

/* 115200 8N1 unless board.h says otherwise; QEMU ignores the rate. */
#ifndef LOUPE_BOARD_UART_BAUD
#define LOUPE_BOARD_UART_BAUD 115200u
#endif

/* Enables the transmitter and receiver at LOUPE_BOARD_UART_BAUD. */
void board_uart_init(void);

/* Waits until the transmitter takes the byte. */
void board_uart_putc(uint8_t byte);

/* Returns 1 and stores a received byte when one has arrived, 0 at once
 * otherwise. */
int board_uart_poll(uint8_t* byte);

#endif
