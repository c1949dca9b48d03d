/* The UART of the nRF51 (nRF51 Series Reference Manual v3.0, chapter 29),
 * also present as UART0 on the nRF52: tasks start the directions, events
 * say a byte was sent or received, one byte at a time through TXD and RXD.
 * Pins come from board.h (LOUPE_BOARD_UART_TX_PIN, LOUPE_BOARD_UART_RX_PIN). */
#include "board_uart.h"

#define NRF_REG(offset) (*(volatile uint32_t*)(LOUPE_BOARD_UART0_BASE + (offset)))
#define TASKS_STARTRX NRF_REG(0x000u)
#define TASKS_STARTTX NRF_REG(0x008u)
#define EVENTS_RXDRDY NRF_REG(0x108u)
#define EVENTS_TXDRDY NRF_REG(0x11Cu)
#define ENABLE NRF_REG(0x500u)
#define PSELTXD NRF_REG(0x50Cu)
#define PSELRXD NRF_REG(0x514u)
#define RXD NRF_REG(0x518u)
#define TXD NRF_REG(0x51Cu)
#define BAUDRATE NRF_REG(0x524u)

enum { kEnableUart = 4u };

/* BAUDRATE takes a code, not a divider (table "Baud rate" of the manual);
 * 115200 is the only rate our boards use. */
#if LOUPE_BOARD_UART_BAUD != 115200u
#error "nrf51_uart: only 115200 baud is tabled"
#endif
#define BAUD_115200 0x01D7E000u

void board_uart_init(void) {
  PSELTXD = LOUPE_BOARD_UART_TX_PIN;
  PSELRXD = LOUPE_BOARD_UART_RX_PIN;
  BAUDRATE = BAUD_115200;
  ENABLE = kEnableUart;
  EVENTS_RXDRDY = 0u;
  TASKS_STARTRX = 1u;
  TASKS_STARTTX = 1u;
}

void board_uart_putc(uint8_t byte) {
  EVENTS_TXDRDY = 0u;
  TXD = byte;
  while (EVENTS_TXDRDY == 0u) {
  }
}

int board_uart_poll(uint8_t* byte) {
  if (EVENTS_RXDRDY == 0u) return 0;
  /* Clear the event before reading RXD: reading moves the next byte of the
   * receive FIFO into RXD and raises the event again. */
  EVENTS_RXDRDY = 0u;
  *byte = (uint8_t)(RXD & 0xFFu);
  return 1;
}
