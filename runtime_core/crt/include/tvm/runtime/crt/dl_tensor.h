/*
 * The tensor a packed function receives for type code kTVMDLTensorHandle:
 * DLPack's DLTensor, declared here with DLPack's field order and types (its
 * ABI) so a board needs no copy of dlpack.h. The RPC server builds these for
 * CALL_FUNC from device memory it handed out.
 */
#ifndef TVM_RUNTIME_CRT_DL_TENSOR_H_
#define TVM_RUNTIME_CRT_DL_TENSOR_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dlpack.h defines the same types; whichever comes first wins. */
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

/*! \brief Where the data lives: device type 1 is the CPU (DLPack's kDLCPU). */
typedef struct {
  int32_t device_type;
  int32_t device_id;
} DLDevice;

/*! \brief Element type: code (0 int, 1 uint, 2 float), bits per lane, lanes. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides; /*!< NULL: compact, row major */
  uint64_t byte_offset;
} DLTensor;

#endif /* DLPACK_DLPACK_H_ */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_DL_TENSOR_H_ */
