/* C runtime start-up for Cortex-M firmware; see cortex_m_startup.h. */
#include "cortex_m_startup.h"

#include <stdint.h>

#include "semihosting.h"

/* Defined by the board's linker script. */
extern uint32_t __data_load_start[];
extern uint32_t __data_start[];
extern uint32_t __data_end[];
extern uint32_t __bss_start[];
extern uint32_t __bss_end[];

int main(void);

enum { kUnexpectedExceptionStatus = 70 };

#if defined(__ARM_FP)
/* Coprocessor Access Control Register: CP10 and CP11 (the FPU and MVE)
 * start disabled, and the first floating-point instruction would fault. */
#define LOUPE_SCB_CPACR (*(volatile uint32_t*)0xE000ED88u)
#endif

/* Word loops, not memcpy/memset: no library is linked, and the linker
 * script aligns both sections to 4 bytes. The compiler must not turn them
 * back into library calls (-fno-tree-loop-distribute-patterns). */
void cortex_m_start(void) {
  const uint32_t* from = __data_load_start;
  uint32_t* to = __data_start;
  while (to < __data_end) *to++ = *from++;
  for (to = __bss_start; to < __bss_end;) *to++ = 0u;
#if defined(__ARM_FP)
  LOUPE_SCB_CPACR |= (0xFu << 20);
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  semihosting_exit(main());
}

void cortex_m_unexpected_exception(void) {
  semihosting_exit(kUnexpectedExceptionStatus);
}
