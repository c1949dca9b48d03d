/* The one function a model_rpc firmware needs from the model: its
 * descriptor (tvm/runtime/crt/rpc_server.h). The project generator writes
 * model_descriptor.c defining it for the compiled model; returning NULL
 * builds a firmware without a model (the model requests then fail). */
#ifndef LOUPE_PLATFORMS_MODEL_DESCRIPTOR_H
#define LOUPE_PLATFORMS_MODEL_DESCRIPTOR_H

#include <tvm/runtime/crt/rpc_server.h>

const TVMModelDescriptor* loupe_model_descriptor(void);

#endif
