/* The Arm CMSDK APB UART: the serial port of the MPS2 and MPS3 FPGA boards
 * and of their QEMU models (CMSDK technical reference, "UART"). */
#include "board_uart.h"

typedef struct {
  volatile uint32_t data;      /* +0x00 one byte in or out */
  volatile uint32_t state;     /* +0x04 bit 0 TX buffer full, bit 1 RX buffer full */
  volatile uint32_t ctrl;      /* +0x08 bit 0 TX enable, bit 1 RX enable */
  volatile uint32_t intstatus; /* +0x0C interrupt status / clear */
  volatile uint32_t bauddiv;   /* +0x10 clock cycles per bit, at least 16 */
} cmsdk_uart_regs;

#define UART ((cmsdk_uart_regs*)LOUPE_BOARD_UART0_BASE)

enum {
  kStateTxFull = 1u << 0,
  kStateRxFull = 1u << 1,
  kCtrlTxEnable = 1u << 0,
  kCtrlRxEnable = 1u << 1,
  kMinimumBaudDivider = 16u
};

void board_uart_init(void) {
  uint32_t divider = LOUPE_BOARD_UART_CLOCK_HZ / LOUPE_BOARD_UART_BAUD;
  if (divider < kMinimumBaudDivider) divider = kMinimumBaudDivider;
  /* The divider is only sampled while the UART is disabled; without RX
   * enable the UART drops what it receives. */
  UART->ctrl = 0u;
  UART->bauddiv = divider;
  UART->ctrl = kCtrlTxEnable | kCtrlRxEnable;
}

void board_uart_putc(uint8_t byte) {
  while ((UART->state & kStateTxFull) != 0u) {
  }
  UART->data = byte;
}

int board_uart_poll(uint8_t* byte) {
  if ((UART->state & kStateRxFull) == 0u) return 0;
  *byte = (uint8_t)(UART->data & 0xFFu);
  return 1;
}
