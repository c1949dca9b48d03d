/* nRF52840 (Product Specification v1.7, "GPIO" and "UARTE"): the TX pin is
 * driven high as an output before the UARTE takes it, so the line idles at
 * the stop level and the host sees no false start bit. */
#include <stdint.h>

#include "board_init.h"

/* P0 at 0x50000000 */
#define P0_OUTSET (*(volatile uint32_t*)0x50000508u)
#define P0_DIRSET (*(volatile uint32_t*)0x50000518u)

void board_init(void) {
  P0_OUTSET = 1u << LOUPE_BOARD_UART_TX_PIN;
  P0_DIRSET = 1u << LOUPE_BOARD_UART_TX_PIN;
}
