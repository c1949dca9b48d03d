/* The vector table every board uses. The core reads the initial stack
 * pointer and the reset handler from address 0 (VTOR, or VTOR_S on an
 * Armv8-M core that resets in Secure state, resets to 0 on our boards).
 * Only the system exceptions are listed: the firmware enables no external
 * interrupts, so the external vectors are never read. SysTick goes to
 * cortex_m_systick_handler, which firmware running a SysTick clock defines. */
#include "cortex_m_startup.h"

/* Defined by the board's linker.ld: the top of data memory, where the stack
 * starts. */
extern char __stack_top[];

/* Weak: replaced by the firmware's own definition when it has one. */
__attribute__((weak)) void cortex_m_systick_handler(void) {
  cortex_m_unexpected_exception();
}

typedef void (*exception_handler)(void);

typedef struct {
  void* initial_stack_pointer;
  exception_handler handlers[15];
} vector_table;

/* Armv8-M mainline has SecureFault in slot 7; earlier cores reserve it. */
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define SECURE_FAULT_HANDLER cortex_m_unexpected_exception
#else
#define SECURE_FAULT_HANDLER 0
#endif

__attribute__((section(".vectors"), used)) static const vector_table kVectors = {
    __stack_top,
    {
        cortex_m_start,                /* reset */
        cortex_m_unexpected_exception, /* NMI */
        cortex_m_unexpected_exception, /* HardFault */
        cortex_m_unexpected_exception, /* MemManage */
        cortex_m_unexpected_exception, /* BusFault */
        cortex_m_unexpected_exception, /* UsageFault */
        SECURE_FAULT_HANDLER,          /* SecureFault (Armv8-M), else reserved */
        0,                             /* reserved */
        0,                             /* reserved */
        0,                             /* reserved */
        cortex_m_unexpected_exception, /* SVCall */
        cortex_m_unexpected_exception, /* DebugMonitor */
        0,                             /* reserved */
        cortex_m_unexpected_exception, /* PendSV */
        cortex_m_systick_handler,      /* SysTick */
    },
};
