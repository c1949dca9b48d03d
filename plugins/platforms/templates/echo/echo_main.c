/* Echo firmware: the smallest firmware that proves a board's start-up code,
 * UART and exit path. Every data byte received on UART0 is sent back
 * unchanged after an ACK that says the UART is ready; DLE EOT ends the run
 * with semihosting exit status 0 (see echo_protocol.h). Built for every
 * board from the board's board.h. */
#include <stdint.h>

#include "board_init.h"
#include "board_uart.h"
#include "echo_protocol.h"

static uint8_t next_byte(void) {
  uint8_t byte;
  while (!board_uart_poll(&byte)) {
  }
  return byte;
}

int main(void) {
  board_init();
  board_uart_init();
  board_uart_putc(ECHO_READY);
  for (;;) {
    uint8_t byte = next_byte();
    if (byte == ECHO_ESCAPE) {
      byte = next_byte();
      if (byte == ECHO_TERMINATOR) return 0;
      if (byte != ECHO_ESCAPE) return ECHO_STATUS_PROTOCOL_ERROR;
    }
    board_uart_putc(byte);
  }
}
