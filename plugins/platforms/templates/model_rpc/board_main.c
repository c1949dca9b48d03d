/* Model RPC firmware for the Cortex-M boards: the board's side of
 * docs/session_rpc.md over the board's serial port. It starts a clock for
 * the profiler (SysTick, or the DWT cycle counter where board.h asks),
 * sends BOOT and then feeds every received byte to the RPC server, which
 * answers the host's requests (run the model, read its outputs and profile,
 * device memory, registry functions) on the same UART.
 *
 * Built per board from its board.h, with the crt sources (core, registry,
 * profiler, framing, rpc) and the model's model_descriptor.c; compile the
 * model with -DTVM_CRT_PROFILING=1 for per-operator ticks. */
#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/rpc_server.h>

#include "board.h"
#include "board_init.h"
#include "board_uart.h"
#include "cortex_m_startup.h"
#include "rpc_firmware.h"
#include "semihosting.h"

/* Device memory for ALLOC (TVMPlatformMemoryAllocate's default page
 * allocator works in it); board.h or -D may size it. Running a model does
 * not use it: inputs and outputs have their own static buffers. */
#ifndef LOUPE_RPC_ARENA_BYTES
#define LOUPE_RPC_ARENA_BYTES (64u * 1024u)
#endif

enum { kAbortExitStatus = 71 };

#if defined(LOUPE_BOARD_PROFILER_DWT)
/* ---- The DWT cycle counter (Armv7-M and Armv8-M mainline cores): 32 bits
 * of core cycles, all the profiler keeps. Real boards use it; QEMU does not
 * model the DWT, so the emulated boards count with SysTick below. ---- */

#define DEMCR (*(volatile uint32_t*)0xE000EDFCu)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL (*(volatile uint32_t*)0xE0001000u)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CYCCNT (*(volatile uint32_t*)0xE0001004u)
/* The Cortex-M7's DWT ignores writes until its lock access register is
 * given the key; the other cores have no lock and ignore the write. */
#define DWT_LAR (*(volatile uint32_t*)0xE0001FB0u)
#define DWT_LAR_KEY 0xC5ACCE55u

static void profiler_clock_start(void) {
  DEMCR |= DEMCR_TRCENA;
  DWT_LAR = DWT_LAR_KEY;
  DWT_CYCCNT = 0u;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
}

uint32_t TVMPlatformProfilerTicks(void) {
  return DWT_CYCCNT;
}

#else
/* ---- SysTick as a 56-bit clock: a 24-bit down counter plus wraps. ---- */

typedef struct {
  volatile uint32_t ctrl; /* bit 0 enable, bit 1 interrupt, bit 2 core clock */
  volatile uint32_t load; /* reload value */
  volatile uint32_t val;  /* current value, counting down */
  volatile uint32_t calib;
} systick_regs;

#define SYSTICK ((systick_regs*)0xE000E010u)
#define SYSTICK_PERIOD 0x01000000u /* LOAD + 1 ticks per wrap */
/* Interrupt Control and State Register: PENDSTSET, SysTick pending. */
#define SCB_ICSR (*(volatile uint32_t*)0xE000ED04u)
#define ICSR_PENDSTSET (1u << 26)

/* Wraps counted by the handler: each is the counter's step from 1 to 0,
 * the moment the SysTick exception becomes pending. */
static volatile uint32_t systick_wraps;

void cortex_m_systick_handler(void) {
  ++systick_wraps;
}

static void profiler_clock_start(void) {
  SYSTICK->ctrl = 0u;
  SYSTICK->load = SYSTICK_PERIOD - 1u;
  SYSTICK->val = 0u;
  SYSTICK->ctrl = 7u; /* core clock, interrupt on wrap, enabled */
}

/* Ticks since profiler_clock_start. A period starts when the counter reaches 0
 * (position 0), then counts LOAD, LOAD - 1, ..., 1 (positions 1 ... 2^24 - 1).
 * With interrupts masked, a wrap the handler has not counted yet shows as
 * the pending bit: count it here and read the counter again, which is then
 * in the new period. So count and counter always belong together, and the
 * result never goes backwards however late the exception is taken. */
static uint64_t systick_now(void) {
  uint32_t primask;
  uint32_t wraps;
  uint32_t value;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  wraps = systick_wraps;
  value = SYSTICK->val;
  if ((SCB_ICSR & ICSR_PENDSTSET) != 0u) {
    ++wraps;
    value = SYSTICK->val;
  }
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
  return ((uint64_t)wraps << 24) + (value == 0u ? 0u : (uint64_t)(SYSTICK_PERIOD - value));
}

uint32_t TVMPlatformProfilerTicks(void) {
  return (uint32_t)systick_now();
}
#endif

uint32_t TVMPlatformProfilerTicksPerSecond(void) {
  return LOUPE_BOARD_CPU_CLOCK_HZ;
}

/* ---- The link and the runtime's platform hooks. ---- */

static TVMRpcServer server;
static int server_ready;
/* Aligned for any object a function may place in device memory. */
static union {
  uint64_t align;
  uint8_t bytes[LOUPE_RPC_ARENA_BYTES];
} arena;

static tvm_crt_error_t uart_write(void* context, uint8_t byte) {
  (void)context;
  board_uart_putc(byte);
  return kTvmErrorNoError;
}

/* Tells the host why (a LOG "abort 0x...") before the board stops: QEMU
 * exits with status 71, a real board parks (semihosting.h). */
void TVMPlatformAbort(tvm_crt_error_t error_code) {
  char text[LOUPE_RPC_ABORT_TEXT_BYTES];
  loupe_rpc_abort_text(error_code, text);
  if (server_ready) TVMRpcServerLog(&server, text);
  semihosting_exit(kAbortExitStatus);
}

int main(void) {
  uint8_t byte;
  board_init();
  board_uart_init();
  profiler_clock_start();
  loupe_rpc_firmware_start(&server, LOUPE_BOARD_NAME, arena.bytes, sizeof(arena.bytes), uart_write,
                           NULL);
  server_ready = 1;
  for (;;) {
    if (board_uart_poll(&byte)) TVMRpcServerFeed(&server, byte);
  }
}
