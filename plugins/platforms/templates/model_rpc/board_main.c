/* Model RPC firmware for the Cortex-M QEMU boards: the board's side of
 * docs/session_rpc.md over UART0. It starts a SysTick clock for the
 * profiler, sends BOOT and then feeds every received byte to the RPC server,
 * which answers the host's requests (run the model, read its outputs and
 * profile, device memory, registry functions) on the same UART.
 *
 * Built per board from its board.h, with the crt sources (core, registry,
 * profiler, framing, rpc) and the model's model_descriptor.c; compile the
 * model with -DTVM_CRT_PROFILING=1 for per-operator ticks. */
#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/rpc_server.h>

#include "board.h"
#include "cmsdk_uart.h"
#include "cortex_m_startup.h"
#include "rpc_firmware.h"
#include "semihosting.h"

/* Device memory for ALLOC (TVMPlatformMemoryAllocate's default page
 * allocator works in it); a project may size it with -D. */
#ifndef LOUPE_RPC_ARENA_BYTES
#define LOUPE_RPC_ARENA_BYTES (64u * 1024u)
#endif

/* The baud rate only matters on hardware; QEMU ignores it. */
enum { kBaudRate = 115200, kAbortExitStatus = 71 };

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

static void systick_start(void) {
  SYSTICK->ctrl = 0u;
  SYSTICK->load = SYSTICK_PERIOD - 1u;
  SYSTICK->val = 0u;
  SYSTICK->ctrl = 7u; /* core clock, interrupt on wrap, enabled */
}

/* Ticks since systick_start. A period starts when the counter reaches 0
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
  cmsdk_uart_putc((cmsdk_uart_regs*)context, byte);
  return kTvmErrorNoError;
}

/* Tells the host why (a LOG "abort 0x...") before QEMU exits with status 71. */
void TVMPlatformAbort(tvm_crt_error_t error_code) {
  char text[LOUPE_RPC_ABORT_TEXT_BYTES];
  loupe_rpc_abort_text(error_code, text);
  if (server_ready) TVMRpcServerLog(&server, text);
  semihosting_exit(kAbortExitStatus);
}

int main(void) {
  cmsdk_uart_regs* uart = (cmsdk_uart_regs*)LOUPE_BOARD_UART0_BASE;
  uint8_t byte;
  cmsdk_uart_init(uart, LOUPE_BOARD_CPU_CLOCK_HZ, kBaudRate);
  systick_start();
  loupe_rpc_firmware_start(&server, LOUPE_BOARD_NAME, arena.bytes, sizeof(arena.bytes), uart_write,
                           uart);
  server_ready = 1;
  for (;;) {
    if (cmsdk_uart_poll(uart, &byte)) TVMRpcServerFeed(&server, byte);
  }
}
