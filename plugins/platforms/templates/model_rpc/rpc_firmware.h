/* What every model_rpc main (board_main.c on the boards, stdio_main.c on the
 * desktop) shares: starting the runtime and the RPC server, the empty system
 * lib of an AOT model, and the text an abort sends the host. The mains keep
 * only their link, clock, arena size and way of exiting. */
#ifndef LOUPE_PLATFORMS_RPC_FIRMWARE_H
#define LOUPE_PLATFORMS_RPC_FIRMWARE_H

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/rpc_server.h>

/* Initialises the runtime, hands it `arena` for ALLOC, and starts the RPC
 * server for the model of model_descriptor.c on the link `write`. Calls
 * TVMPlatformAbort when the runtime or the arena cannot be set up. */
void loupe_rpc_firmware_start(TVMRpcServer* server, const char* board_name, uint8_t* arena,
                              size_t arena_bytes, TVMFrameByteWriter write, void* write_context);

/* "abort 0x0000000f": what TVMPlatformAbort logs to the host. */
#define LOUPE_RPC_ABORT_TEXT_BYTES 17
void loupe_rpc_abort_text(tvm_crt_error_t error_code, char text[LOUPE_RPC_ABORT_TEXT_BYTES]);

#endif
