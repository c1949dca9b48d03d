/* The USART of the STM32F1, F2 and F4 families (RM0090 for the STM32F405,
 * section 30.6): status in SR, one data register for both directions. */
#include "board_uart.h"

typedef struct {
  volatile uint32_t sr;  /* +0x00 bit 7 TXE, bit 5 RXNE, bit 3 ORE */
  volatile uint32_t dr;  /* +0x04 received byte / byte to send */
  volatile uint32_t brr; /* +0x08 USARTDIV, 12.4 fixed point at 16x oversampling */
  volatile uint32_t cr1; /* +0x0C bit 13 UE, bit 3 TE, bit 2 RE */
} stm32_usart_v1_regs;

#define USART ((stm32_usart_v1_regs*)LOUPE_BOARD_UART0_BASE)

enum {
  kSrTxEmpty = 1u << 7,
  kSrRxNotEmpty = 1u << 5,
  kSrOverrun = 1u << 3,
  kCr1Enable = 1u << 13,
  kCr1TxEnable = 1u << 3,
  kCr1RxEnable = 1u << 2
};

void board_uart_init(void) {
  USART->cr1 = 0u;
  /* At 16x oversampling BRR holds clock / baud, rounded. */
  USART->brr = (LOUPE_BOARD_UART_CLOCK_HZ + LOUPE_BOARD_UART_BAUD / 2u) / LOUPE_BOARD_UART_BAUD;
  USART->cr1 = kCr1Enable | kCr1TxEnable | kCr1RxEnable;
}

void board_uart_putc(uint8_t byte) {
  while ((USART->sr & kSrTxEmpty) == 0u) {
  }
  USART->dr = byte;
}

int board_uart_poll(uint8_t* byte) {
  /* Reading SR then DR also clears an overrun; the byte lost to it shows
   * up as a bad frame checksum at the host. */
  if ((USART->sr & (kSrRxNotEmpty | kSrOverrun)) == 0u) return 0;
  *byte = (uint8_t)(USART->dr & 0xFFu);
  return 1;
}
