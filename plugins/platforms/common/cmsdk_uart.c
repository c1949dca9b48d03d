/* Polled CMSDK APB UART driver; see cmsdk_uart.h. */
#include "cmsdk_uart.h"

enum {
  kStateTxFull = 1u << 0,
  kStateRxFull = 1u << 1,
  kCtrlTxEnable = 1u << 0,
  kCtrlRxEnable = 1u << 1,
  kMinimumBaudDivider = 16u
};

void cmsdk_uart_init(cmsdk_uart_regs* uart, uint32_t clock_hz, uint32_t baud) {
  uint32_t divider = baud == 0u ? kMinimumBaudDivider : clock_hz / baud;
  if (divider < kMinimumBaudDivider) divider = kMinimumBaudDivider;
  /* The divider is only sampled while the UART is disabled. */
  uart->ctrl = 0u;
  uart->bauddiv = divider;
  uart->ctrl = kCtrlTxEnable | kCtrlRxEnable;
}

void cmsdk_uart_putc(cmsdk_uart_regs* uart, uint8_t byte) {
  while ((uart->state & kStateTxFull) != 0u) {
  }
  uart->data = byte;
}

uint8_t cmsdk_uart_getc(cmsdk_uart_regs* uart) {
  while ((uart->state & kStateRxFull) == 0u) {
  }
  return (uint8_t)(uart->data & 0xFFu);
}

int cmsdk_uart_poll(cmsdk_uart_regs* uart, uint8_t* byte) {
  if ((uart->state & kStateRxFull) == 0u) return 0;
  *byte = (uint8_t)(uart->data & 0xFFu);
  return 1;
}
