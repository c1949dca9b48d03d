/* What a board needs before its UART works: peripheral clocks switched on,
 * the UART's pins given to it. A board that needs it defines
 * LOUPE_BOARD_HAS_INIT in board.h and board_init() in its folder's
 * board_init.c, from the board's reference manual; the emulated boards need
 * nothing. The core clock stays at the reset oscillator's rate (board.h's
 * LOUPE_BOARD_CPU_CLOCK_HZ): no PLL set-up, so nothing can leave a board
 * running out of specification. */
#ifndef LOUPE_PLATFORMS_BOARD_INIT_H
#define LOUPE_PLATFORMS_BOARD_INIT_H

#include "board.h"

#if defined(LOUPE_BOARD_HAS_INIT)
void board_init(void);
#else
static inline void board_init(void) {}
#endif

#endif
