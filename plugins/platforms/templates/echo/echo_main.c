/* Echo firmware: the smallest firmware that proves a board's start-up code,
 * UART and exit path. Every data byte received on UART0 is sent back
 * unchanged; DLE EOT ends the run with semihosting exit status 0 (see
 * echo_protocol.h). Built for every board from the board's board.h. */
#include <stdint.h>

#include "board.h"
#include "cmsdk_uart.h"
#include "echo_protocol.h"

/* The baud rate only matters on hardware; QEMU ignores it. */
enum { kBaudRate = 115200 };

int main(void) {
  cmsdk_uart_regs* uart = (cmsdk_uart_regs*)LOUPE_BOARD_UART0_BASE;
  cmsdk_uart_init(uart, LOUPE_BOARD_CPU_CLOCK_HZ, kBaudRate);
  for (;;) {
    uint8_t byte = cmsdk_uart_getc(uart);
    if (byte == ECHO_ESCAPE) {
      byte = cmsdk_uart_getc(uart);
      if (byte == ECHO_TERMINATOR) return 0;
      if (byte != ECHO_ESCAPE) return ECHO_STATUS_PROTOCOL_ERROR;
    }
    cmsdk_uart_putc(uart, byte);
  }
}
