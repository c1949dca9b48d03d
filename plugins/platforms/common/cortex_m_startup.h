/* What every board's reset handler does after the core has loaded the stack
 * pointer and jumped to it: prepare C's memory, then run main. The vector
 * table that points here is cortex_m_vectors.c. */
#ifndef LOUPE_PLATFORMS_CORTEX_M_STARTUP_H
#define LOUPE_PLATFORMS_CORTEX_M_STARTUP_H

/* Copies .data from its load address, zeroes .bss, enables the FPU when the
 * firmware is compiled for one, calls main and exits (semihosting) with its
 * status. Uses the symbols of the board's linker script. */
void cortex_m_start(void) __attribute__((noreturn));

/* Every exception the firmware does not handle: exits with a failure
 * status, so a faulting test ends instead of hanging until its time-out. */
void cortex_m_unexpected_exception(void) __attribute__((noreturn));

/* The SysTick exception. Firmware that enables the SysTick interrupt defines
 * it; the default (a weak definition in cortex_m_vectors.c) is an unexpected
 * exception, as for every other vector. */
void cortex_m_systick_handler(void);

#endif
