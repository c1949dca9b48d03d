/* The UARTE of the nRF52 (nRF52840 Product Specification v1.7, section
 * 6.34): the UART with EasyDMA. Each direction moves a buffer in RAM; here
 * each buffer is one byte, so the driver stays polled. Between one received
 * byte's ENDRX and the next STARTRX the UARTE keeps receiving into its own
 * FIFO, and the host sends a request only after the previous answer, so a
 * one-byte buffer loses nothing. Pins from board.h. */
#include "board_uart.h"

#define NRF_REG(offset) (*(volatile uint32_t*)(LOUPE_BOARD_UART0_BASE + (offset)))
#define TASKS_STARTRX NRF_REG(0x000u)
#define TASKS_STARTTX NRF_REG(0x008u)
#define EVENTS_ENDRX NRF_REG(0x110u)
#define EVENTS_ENDTX NRF_REG(0x120u)
#define ENABLE NRF_REG(0x500u)
#define PSEL_TXD NRF_REG(0x50Cu)
#define PSEL_RXD NRF_REG(0x514u)
#define BAUDRATE NRF_REG(0x524u)
#define RXD_PTR NRF_REG(0x534u)
#define RXD_MAXCNT NRF_REG(0x538u)
#define TXD_PTR NRF_REG(0x544u)
#define TXD_MAXCNT NRF_REG(0x548u)

enum { kEnableUarte = 8u };

#if LOUPE_BOARD_UART_BAUD != 115200u
#error "nrf52_uarte: only 115200 baud is tabled"
#endif
#define BAUD_115200 0x01D60000u /* the UARTE's code, not the UART's */

/* EasyDMA reads and writes RAM only, never flash. */
static volatile uint8_t rx_byte;
static volatile uint8_t tx_byte;

static void start_receive(void) {
  RXD_PTR = (uint32_t)(uintptr_t)&rx_byte;
  RXD_MAXCNT = 1u;
  TASKS_STARTRX = 1u;
}

void board_uart_init(void) {
  PSEL_TXD = LOUPE_BOARD_UART_TX_PIN;
  PSEL_RXD = LOUPE_BOARD_UART_RX_PIN;
  BAUDRATE = BAUD_115200;
  ENABLE = kEnableUarte;
  EVENTS_ENDRX = 0u;
  start_receive();
}

void board_uart_putc(uint8_t byte) {
  tx_byte = byte;
  EVENTS_ENDTX = 0u;
  TXD_PTR = (uint32_t)(uintptr_t)&tx_byte;
  TXD_MAXCNT = 1u;
  TASKS_STARTTX = 1u;
  while (EVENTS_ENDTX == 0u) {
  }
}

int board_uart_poll(uint8_t* byte) {
  if (EVENTS_ENDRX == 0u) return 0;
  EVENTS_ENDRX = 0u;
  *byte = rx_byte;
  start_receive();
  return 1;
}
