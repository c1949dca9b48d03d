/* STM32F405 (RM0090): clock USART1 before using it. QEMU ignores the RCC,
 * a real chip does not: RCC_APB2ENR (RCC at 0x40023800, offset 0x44) bit 4
 * USART1EN. The pins (PA9, PA10) are not routed: the Netduino Plus 2 has no
 * USB serial port on them, and only QEMU runs this board. */
#include <stdint.h>

#include "board_init.h"

#define RCC_APB2ENR (*(volatile uint32_t*)0x40023844u)
#define RCC_APB2ENR_USART1EN (1u << 4)

void board_init(void) {
  RCC_APB2ENR |= RCC_APB2ENR_USART1EN;
}
