/* The USART and LPUART of the STM32F7, L4, G4 and H7 families (RM0385
 * section 31.8, RM0432 sections 50.7 and 51.7): separate receive and
 * transmit data registers, status in ISR, flags cleared through ICR. A board
 * whose serial port is an LPUART defines LOUPE_BOARD_UART_IS_LPUART, whose
 * baud register holds 256 x clock / baud instead of clock / baud. */
#include "board_uart.h"

typedef struct {
  volatile uint32_t cr1;  /* +0x00 bit 0 UE, bit 2 RE, bit 3 TE */
  volatile uint32_t cr2;  /* +0x04 */
  volatile uint32_t cr3;  /* +0x08 */
  volatile uint32_t brr;  /* +0x0C */
  volatile uint32_t gtpr; /* +0x10 (not on the LPUART) */
  volatile uint32_t rtor; /* +0x14 (not on the LPUART) */
  volatile uint32_t rqr;  /* +0x18 */
  volatile uint32_t isr;  /* +0x1C bit 7 TXE, bit 5 RXNE, bit 3 ORE */
  volatile uint32_t icr;  /* +0x20 bit 3 ORECF */
  volatile uint32_t rdr;  /* +0x24 */
  volatile uint32_t tdr;  /* +0x28 */
} stm32_usart_v2_regs;

#define USART ((stm32_usart_v2_regs*)LOUPE_BOARD_UART0_BASE)

enum {
  kIsrTxEmpty = 1u << 7,
  kIsrRxNotEmpty = 1u << 5,
  kIsrOverrun = 1u << 3,
  kIcrOverrunClear = 1u << 3,
  kCr1Enable = 1u << 0,
  kCr1RxEnable = 1u << 2,
  kCr1TxEnable = 1u << 3
};

void board_uart_init(void) {
  USART->cr1 = 0u; /* BRR may only be written while UE is clear */
#if defined(LOUPE_BOARD_UART_IS_LPUART)
  USART->brr = (uint32_t)((256ull * LOUPE_BOARD_UART_CLOCK_HZ + LOUPE_BOARD_UART_BAUD / 2u) /
                          LOUPE_BOARD_UART_BAUD);
#else
  USART->brr = (LOUPE_BOARD_UART_CLOCK_HZ + LOUPE_BOARD_UART_BAUD / 2u) / LOUPE_BOARD_UART_BAUD;
#endif
  USART->cr1 = kCr1Enable | kCr1RxEnable | kCr1TxEnable;
}

void board_uart_putc(uint8_t byte) {
  while ((USART->isr & kIsrTxEmpty) == 0u) {
  }
  USART->tdr = byte;
}

int board_uart_poll(uint8_t* byte) {
  const uint32_t status = USART->isr;
  /* An overrun stops reception until it is cleared; the byte lost to it
   * shows up as a bad frame checksum at the host. */
  if ((status & kIsrOverrun) != 0u) USART->icr = kIcrOverrunClear;
  if ((status & kIsrRxNotEmpty) == 0u) return 0;
  *byte = (uint8_t)(USART->rdr & 0xFFu);
  return 1;
}
