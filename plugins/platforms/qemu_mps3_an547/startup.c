/* Vector table of the MPS3 AN547 (Cortex-M55, Armv8.1-M with TrustZone).
 * The core resets in Secure state and reads the initial stack pointer and
 * the reset handler from VTOR_S, which resets to 0 on this board. Only the
 * system exceptions are listed: the firmware enables no interrupts. */
#include "cortex_m_startup.h"

/* Defined by linker.ld: the top of DTCM, where the stack starts. */
extern char __stack_top[];

typedef void (*exception_handler)(void);

typedef struct {
  void* initial_stack_pointer;
  exception_handler handlers[15];
} vector_table;

__attribute__((section(".vectors"), used)) static const vector_table kVectors = {
    __stack_top,
    {
        cortex_m_start,                /* reset */
        cortex_m_unexpected_exception, /* NMI */
        cortex_m_unexpected_exception, /* HardFault */
        cortex_m_unexpected_exception, /* MemManage */
        cortex_m_unexpected_exception, /* BusFault */
        cortex_m_unexpected_exception, /* UsageFault */
        cortex_m_unexpected_exception, /* SecureFault (Armv8-M) */
        0,                             /* reserved */
        0,                             /* reserved */
        0,                             /* reserved */
        cortex_m_unexpected_exception, /* SVCall */
        cortex_m_unexpected_exception, /* DebugMonitor */
        0,                             /* reserved */
        cortex_m_unexpected_exception, /* PendSV */
        cortex_m_unexpected_exception, /* SysTick */
    },
};
