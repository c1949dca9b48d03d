/* Driver for the Arm CMSDK APB UART, the serial port of the MPS2 and MPS3
 * FPGA boards and of their QEMU models. Polled, no interrupts: the firmware
 * that uses it (echo tests, the model runner) talks to one host at a time and
 * has nothing else to do while it waits. */
#ifndef LOUPE_PLATFORMS_CMSDK_UART_H
#define LOUPE_PLATFORMS_CMSDK_UART_H

#include <stdint.h>

/* The UART's registers, laid out as in the CMSDK technical reference. */
typedef struct {
  volatile uint32_t data;      /* +0x00 one byte in or out */
  volatile uint32_t state;     /* +0x04 bit 0 TX buffer full, bit 1 RX buffer full */
  volatile uint32_t ctrl;      /* +0x08 bit 0 TX enable, bit 1 RX enable */
  volatile uint32_t intstatus; /* +0x0C interrupt status / clear */
  volatile uint32_t bauddiv;   /* +0x10 clock cycles per bit, at least 16 */
} cmsdk_uart_regs;

/* Enables transmit and receive with BAUDDIV = clock_hz / baud (raised to the
 * hardware minimum of 16). Without RX enable the UART drops what it receives. */
void cmsdk_uart_init(cmsdk_uart_regs* uart, uint32_t clock_hz, uint32_t baud);

/* Waits until the transmit buffer has room, then sends one byte. */
void cmsdk_uart_putc(cmsdk_uart_regs* uart, uint8_t byte);

/* Waits for one byte and returns it. */
uint8_t cmsdk_uart_getc(cmsdk_uart_regs* uart);

/* Returns 1 and stores the byte when one has arrived, 0 without waiting
 * otherwise. */
int cmsdk_uart_poll(cmsdk_uart_regs* uart, uint8_t* byte);

#endif
