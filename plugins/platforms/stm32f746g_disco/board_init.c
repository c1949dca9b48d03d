/* STM32F746NG (RM0385): USART1 with TX on PA9 and RX on PB7, alternate
 * function 7. The caches stay off, as after reset. */
#include <stdint.h>

#include "board_init.h"

#define REG(address) (*(volatile uint32_t*)(address))

/* RCC at 0x40023800 */
#define RCC_AHB1ENR REG(0x40023830u) /* bit 0 GPIOAEN, bit 1 GPIOBEN */
#define RCC_APB2ENR REG(0x40023844u) /* bit 4 USART1EN */
/* GPIOA at 0x40020000, GPIOB at 0x40020400 */
#define GPIOA_MODER REG(0x40020000u)
#define GPIOA_AFRH REG(0x40020024u)
#define GPIOB_MODER REG(0x40020400u)
#define GPIOB_AFRL REG(0x40020420u)

enum { kModeAlternate = 2u, kAfUsart1 = 7u, kTxPin = 9u, kRxPin = 7u };

void board_init(void) {
  RCC_AHB1ENR |= (1u << 0) | (1u << 1);
  (void)RCC_AHB1ENR; /* read back: the clocks are on before the ports are written */
  GPIOA_MODER = (GPIOA_MODER & ~(3u << (2u * kTxPin))) | (kModeAlternate << (2u * kTxPin));
  GPIOA_AFRH = (GPIOA_AFRH & ~(0xFu << (4u * (kTxPin - 8u)))) | (kAfUsart1 << (4u * (kTxPin - 8u)));
  GPIOB_MODER = (GPIOB_MODER & ~(3u << (2u * kRxPin))) | (kModeAlternate << (2u * kRxPin));
  GPIOB_AFRL = (GPIOB_AFRL & ~(0xFu << (4u * kRxPin))) | (kAfUsart1 << (4u * kRxPin));
  RCC_APB2ENR |= 1u << 4;
  (void)RCC_APB2ENR;
}
