// The flash footprint read from a link map and `objdump -h`: the regions,
// the input sections (names on their own line, fill, symbols skipped), each
// object charged to its part, loaded bytes in the memory they load into and
// .bss/.data in the memory they run in. The map and headers are written here
// in GNU ld's and objdump's layout, as a board build produces them.
#include <QtTest>

#include "deploy/firmware_footprint.h"

using namespace loupe::deploy;

namespace {

const char* const kMap = R"(Archive member included to satisfy reference by file (symbol)

build/libloupe_crt.a(session.o)
                              build/libloupe_crt.a(rpc_server.o) (TVMSession_Init)

Discarded input sections

 .text          0x00000000        0x0 build/model/src/tvmgen_default_lib0.o

Memory Configuration

Name             Origin             Length             Attributes
ITCM             0x00000000         0x00080000         xr
DTCM             0x20000000         0x00080000         xrw
*default*        0x00000000         0xffffffff

Linker script and memory map

LOAD build/model/src/tvmgen_default_lib0.o

.text           0x00000000      0x200
 .vectors       0x00000000       0x40 build/platform/cortex_m_vectors.o
 .text.tvmgen_default_fused_conv2d
                0x00000040       0x80 build/model/src/tvmgen_default_fused_conv2d.o
                0x00000040                tvmgen_default_fused_conv2d
 .text.TVMFuncCall
                0x000000c0       0x40 build/libloupe_crt.a(crt_runtime_api.o)
                0x000000c0                TVMFuncCall
 .text          0x00000100       0x20 /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libc_nano.a(lib_a-memcpy.o)
 *(.rodata .rodata.*)
 .rodata.tvmgen_default_fused_conv2d_weights
                0x00000120       0x9c build/model/src/tvmgen_default_fused_conv2d.o
 *fill*         0x000001bc        0x4 
 .rodata.board_name
                0x000001c0       0x30 build/platform/board_main.o

.ARM.exidx      0x00000200        0x8
 *(.ARM.exidx .ARM.exidx.*)
 .ARM.exidx     0x00000200        0x8 /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a(_udivmoddi4.o)

.data           0x20000000       0x10 load address 0x00000208
                0x20000000                        __data_start = .
 .data.uart     0x20000000       0x10 build/platform/cmsdk_uart.o

.bss            0x20000010      0x100 load address 0x00000218
 .bss.tvmgen_default_storage
                0x20000010      0x100 build/model/src/tvmgen_default_lib0.o
OUTPUT(build/firmware.elf elf32-littlearm)
)";

const char* const kHeaders = R"(
build/firmware.elf:     file format elf32-littlearm

Sections:
Idx Name          Size      VMA       LMA       File off  Algn
  0 .text         00000200  00000000  00000000  00001000  2**3
                  CONTENTS, ALLOC, LOAD, READONLY, CODE
  1 .ARM.exidx    00000008  00000200  00000200  00001200  2**2
                  CONTENTS, ALLOC, LOAD, READONLY, DATA
  2 .data         00000010  20000000  00000208  00002000  2**2
                  CONTENTS, ALLOC, LOAD, DATA
  3 .bss          00000100  20000010  00000218  00002010  2**4
                  ALLOC
  4 .debug_info   0001623b  00000000  00000000  0000cf78  2**0
                  CONTENTS, READONLY, DEBUGGING, OCTETS
)";

std::uint64_t part(const MemoryImage& m, FirmwarePart p) {
  return m.bytesByPart[static_cast<int>(p)];
}

}  // namespace

class FirmwareFootprintTest : public QObject {
  Q_OBJECT

 private slots:
  void regionsAreTheMemoryConfiguration() {
    const auto regions = parseLinkMapRegions(kMap);
    QCOMPARE(regions.size(), std::size_t{2});
    QCOMPARE(regions[0].name, "ITCM");
    QCOMPARE(regions[0].length, 0x80000u);
    QCOMPARE(regions[1].origin, 0x20000000u);
  }

  void inputSectionsKeepTheirObjectAndSkipSymbols() {
    const auto sections = parseLinkMapSections(kMap);
    // Vectors, conv code, TVMFuncCall, memcpy, weights, fill, board name,
    // exidx, .data.uart, the pool: the discarded section is not among them.
    QCOMPARE(sections.size(), std::size_t{10});
    QCOMPARE(sections[1].name, ".text.tvmgen_default_fused_conv2d");
    QCOMPARE(sections[1].outputSection, ".text");
    QCOMPARE(sections[1].address, 0x40u);
    QCOMPARE(sections[1].size, 0x80u);
    QCOMPARE(sections[1].object, "build/model/src/tvmgen_default_fused_conv2d.o");
    QCOMPARE(sections[5].name, "*fill*");
    QCOMPARE(sections[5].object, "");
    QCOMPARE(sections[9].outputSection, ".bss");
  }

  void objectsAreChargedToTheirPart() {
    QCOMPARE(firmwarePartOf("build/model/src/a.o", ".text.f"), FirmwarePart::ModelCode);
    QCOMPARE(firmwarePartOf("build/model/src/a.o", ".rodata.w"), FirmwarePart::ModelConstants);
    QCOMPARE(firmwarePartOf("build/model/src/a.o", ".loupe.constants.ISRAM"),
             FirmwarePart::ModelConstants);
    QCOMPARE(firmwarePartOf("build/libloupe_crt.a(session.o)", ".text.x"), FirmwarePart::Runtime);
    QCOMPARE(firmwarePartOf("build/platform/board_main.o", ".text.main"),
             FirmwarePart::BoardSupport);
    QCOMPARE(firmwarePartOf("/usr/lib/libc_nano.a(lib_a-memcpy.o)", ".text"),
             FirmwarePart::CLibrary);
    QCOMPARE(firmwarePartOf("", "*fill*"), FirmwarePart::Padding);
  }

  void loadedBytesGoToTheMemoryTheyLoadInto() {
    const FirmwareFootprint footprint = firmwareFootprint(kMap, kHeaders);
    QCOMPARE(footprint.memories.size(), std::size_t{2});
    const MemoryImage& itcm = footprint.memories[0];
    QCOMPARE(itcm.memory, "ITCM");
    // .text, .ARM.exidx and .data's initial values.
    QCOMPARE(itcm.imageBytes, 0x200u + 0x8u + 0x10u);
    QCOMPARE(part(itcm, FirmwarePart::ModelCode), 0x80u);
    QCOMPARE(part(itcm, FirmwarePart::ModelConstants), 0x9cu);
    QCOMPARE(part(itcm, FirmwarePart::Runtime), 0x40u);
    QCOMPARE(part(itcm, FirmwarePart::BoardSupport), 0x40u + 0x30u + 0x10u);
    QCOMPARE(part(itcm, FirmwarePart::CLibrary), 0x20u + 0x8u);
    // The fill the map lists, and the end of .text it does not (0x1f0..0x200).
    QCOMPARE(part(itcm, FirmwarePart::Padding), 0x4u + 0x10u);
    QCOMPARE(itcm.ramBytes, 0u);
    const MemoryImage& dtcm = footprint.memories[1];
    QCOMPARE(dtcm.imageBytes, 0u);
    QCOMPARE(dtcm.ramBytes, 0x10u + 0x100u);  // .data where it runs, and .bss
    QCOMPARE(footprint.bytes(FirmwarePart::ModelConstants), 0x9cu);
    const auto lines = footprintLines(footprint);
    QCOMPARE(lines.size(), std::size_t{1});
    QVERIFY2(lines[0].starts_with("ITCM: 536 of 524,288 bytes loaded (model code 128"),
             lines[0].c_str());
  }

  void noMapMeansNoFootprint() {
    QTemporaryDir dir;
    QVERIFY(!measureFirmware(std::filesystem::path(dir.path().toStdString()) / "firmware.elf",
                             "arm-none-eabi-objdump"));
  }
};

QTEST_GUILESS_MAIN(FirmwareFootprintTest)
#include "firmware_footprint_test.moc"
