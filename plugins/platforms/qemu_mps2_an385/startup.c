/* Vector table of the MPS2 AN385 (Cortex-M3). The core reads the initial
 * stack pointer and the reset handler from address 0 (VTOR resets to 0).
 * Only the system exceptions are listed: the firmware enables no
 * interrupts, so the external vectors are never read. */
#include "cortex_m_startup.h"

/* Defined by linker.ld: the top of data SRAM, where the stack starts. */
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
        0,                             /* reserved */
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
