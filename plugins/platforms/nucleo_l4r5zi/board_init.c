/* STM32L4R5 (RM0432): LPUART1 on PG7/PG8. Port G's upper pins are powered
 * by VDDIO2, which is isolated at reset: the power controller's clock must
 * be on to set PWR_CR2.IOSV before GPIOG works. */
#include <stdint.h>

#include "board_init.h"

#define REG(address) (*(volatile uint32_t*)(address))

/* RCC at 0x40021000 */
#define RCC_AHB2ENR REG(0x4002104Cu)  /* bit 6 GPIOGEN */
#define RCC_APB1ENR1 REG(0x40021058u) /* bit 28 PWREN */
#define RCC_APB1ENR2 REG(0x4002105Cu) /* bit 0 LPUART1EN */
/* PWR at 0x40007000 */
#define PWR_CR2 REG(0x40007004u) /* bit 9 IOSV: VDDIO2 valid */
/* GPIOG at 0x48001800 */
#define GPIOG_MODER REG(0x48001800u)
#define GPIOG_AFRL REG(0x48001820u)
#define GPIOG_AFRH REG(0x48001824u)

enum { kModeAlternate = 2u, kAfLpuart1 = 8u, kTxPin = 7u, kRxPin = 8u };

void board_init(void) {
  RCC_APB1ENR1 |= 1u << 28;
  (void)RCC_APB1ENR1; /* read back: the clock is on before PWR is written */
  PWR_CR2 |= 1u << 9;
  RCC_AHB2ENR |= 1u << 6;
  (void)RCC_AHB2ENR;
  GPIOG_MODER = (GPIOG_MODER & ~(3u << (2u * kTxPin))) | (kModeAlternate << (2u * kTxPin));
  GPIOG_MODER = (GPIOG_MODER & ~(3u << (2u * kRxPin))) | (kModeAlternate << (2u * kRxPin));
  GPIOG_AFRL = (GPIOG_AFRL & ~(0xFu << (4u * kTxPin))) | (kAfLpuart1 << (4u * kTxPin));
  GPIOG_AFRH = (GPIOG_AFRH & ~(0xFu << (4u * (kRxPin - 8u)))) | (kAfLpuart1 << (4u * (kRxPin - 8u)));
  RCC_APB1ENR2 |= 1u << 0;
  (void)RCC_APB1ENR2;
}
