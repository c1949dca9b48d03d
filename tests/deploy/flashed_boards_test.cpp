// The real boards (NUCLEO-L4R5ZI, STM32F746G-DISCO, nRF52840-DK): their
// firmware builds with arm-none-eabi into an ELF, a BIN and a HEX whose
// vector table and sections sit where the board's memory map says, and
// flashing runs the chosen programmer with the right arguments. The
// programmers here are fakes on PATH that record their arguments and fail
// on demand; nothing in this test needs a board.
#include <pty.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "deploy/deploy_error.h"
#include "deploy/firmware_build.h"
#include "deploy/process_runner.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "platforms/builtin_platforms.h"
#include "platforms/flashed_board_platform.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "test_data.h"
#include "transport.h"

namespace fs = std::filesystem;
using loupe::deploy::DeployError;

namespace {

const char* const kRealBoards[] = {"nucleo-l4r5zi", "stm32f746g-disco", "nrf52840-dk"};

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t littleEndianWord(const std::string& bytes, std::size_t offset) {
  std::uint32_t word = 0;
  for (int i = 3; i >= 0; --i) word = (word << 8) | static_cast<std::uint8_t>(bytes[offset + i]);
  return word;
}

// Name -> (size, address) of every section `arm-none-eabi-size -A` lists.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> sections(const fs::path& elf) {
  const auto result =
      loupe::deploy::runProcess({"arm-none-eabi-size", "-A", elf.string()}, elf.parent_path());
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  std::istringstream lines(result.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t size = 0, address = 0;
    if (fields >> name >> size >> address && name.starts_with('.')) out[name] = {size, address};
  }
  return out;
}

// A fake programmer: records its arguments, one per line, and prints and
// exits as FAKE_PROGRAMMER_EXIT says (0 when unset).
void writeFakeProgrammer(const fs::path& directory, const std::string& name) {
  const fs::path script = directory / name;
  std::ofstream out(script);
  out << "#!/bin/sh\n"
      << "for argument in \"$@\"; do printf '%s\\n' \"$argument\"; done > "
         "\"$FAKE_PROGRAMMER_LOG\"\n"
      << "if [ \"${FAKE_PROGRAMMER_EXIT:-0}\" != 0 ]; then\n"
      << "  echo \"Error: open failed (fake " << name << ")\" >&2\n"
      << "  exit \"$FAKE_PROGRAMMER_EXIT\"\n"
      << "fi\n"
      << "echo \"** Programming Finished ** (fake " << name << ")\"\n";
  out.close();
  fs::permissions(script, fs::perms::owner_all);
}

}  // namespace

class FlashedBoards : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  loupe::deploy::PlatformRegistry registry_ = loupe::platforms::builtinPlatformRegistry();
  std::map<std::string, loupe::deploy::FirmwareBuild> builds_;
  QByteArray path_ = qgetenv("PATH");
  int ptyMaster_ = -1;
  std::string ptySlave_;

  const loupe::platforms::FlashedBoardPlatform& board(const QString& name) {
    auto platform = registry_.find(name.toStdString());
    const auto* flashed =
        dynamic_cast<const loupe::platforms::FlashedBoardPlatform*>(platform.get());
    if (flashed == nullptr) throw std::runtime_error(name.toStdString() + " is not a real board");
    return *flashed;
  }

  // hello_world_int8 built for `name`, once.
  const loupe::deploy::FirmwareBuild& build(const QString& name) {
    auto it = builds_.find(name.toStdString());
    if (it != builds_.end()) return it->second;
    const auto& platform = board(name);
    loupe::driver::CompileRequest request{
        loupe::frontend::importTfliteFile(loupe::test::modelsDir() / "hello_world_int8" /
                                          "model.tflite"),
        loupe::target::parseTargetString("c", loupe::targets::builtinTargetRegistry()),
        {},
        platform.cpu()};
    const auto compiled = loupe::driver::compileModel(std::move(request)).model;
    loupe::deploy::FirmwareBuildOptions options;
    options.cacheRoot = dir_.path().toStdString() + "/cache";
    return builds_[name.toStdString()] = loupe::deploy::buildFirmware(platform, compiled, options);
  }

  void addRows() {
    QTest::addColumn<QString>("board");
    for (const char* name : kRealBoards) QTest::newRow(name) << QString(name);
  }

  loupe::deploy::StartOptions startOptions(const std::string& programmer, std::string* log) {
    loupe::deploy::StartOptions options;
    options.port = ptySlave_;
    options.options["programmer"] = programmer;
    options.log = [log](const std::string& text) { *log += text; };
    return options;
  }

  std::vector<std::string> recordedArguments() {
    std::vector<std::string> arguments;
    std::istringstream lines(readText(dir_.path().toStdString() + "/programmer.log"));
    for (std::string line; std::getline(lines, line);) arguments.push_back(line);
    return arguments;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    const fs::path fakes = dir_.path().toStdString() + "/fakes";
    fs::create_directories(fakes);
    for (const char* name : {"openocd", "st-flash", "dfu-util"}) writeFakeProgrammer(fakes, name);
    qputenv("PATH", QByteArray::fromStdString(fakes.string()) + ":" + path_);
    qputenv("FAKE_PROGRAMMER_LOG", dir_.path().toUtf8() + "/programmer.log");
    // The board's serial port after flashing: a pseudo-terminal here.
    char name[256] = {};
    int slave = -1;
    QVERIFY(openpty(&ptyMaster_, &slave, name, nullptr, nullptr) == 0);
    ::close(slave);
    ptySlave_ = name;
  }

  void cleanupTestCase() {
    qputenv("PATH", path_);
    if (ptyMaster_ >= 0) ::close(ptyMaster_);
  }

  void firmwareSitsWhereTheMemoryMapSays_data() { addRows(); }
  void firmwareSitsWhereTheMemoryMapSays() {
    QFETCH(QString, board);
    const auto& platform = this->board(board);
    const auto& description = platform.board();
    const auto& firmware = build(board);
    QVERIFY2(firmware.log.find("warning:") == std::string::npos, firmware.log.c_str());
    const fs::path bin = fs::path(firmware.firmware).replace_extension(".bin");
    const fs::path hex = fs::path(firmware.firmware).replace_extension(".hex");
    QVERIFY(fs::is_regular_file(firmware.firmware));
    QVERIFY(fs::is_regular_file(bin));
    QVERIFY(fs::is_regular_file(hex));

    const auto& flash = description.memoryHolding("code");
    const auto& ram = description.memoryHolding("data");
    QCOMPARE(flash.origin, description.flash->origin);
    // Every section in its memory: code and constants in flash, the rest in RAM.
    const auto list = sections(firmware.firmware);
    QVERIFY2(list.contains(".text") && list.contains(".bss"), "arm-none-eabi-size lists sections");
    for (const auto& [name, placement] : list) {
      const auto [size, address] = placement;
      if (address == 0 && name != ".text") continue;  // debug sections are not loaded
      const bool inFlash = name == ".text" || name == ".ARM.exidx";
      const auto& memory = inFlash ? flash : ram;
      QVERIFY2(address >= memory.origin && address + size <= memory.origin + memory.size,
               qPrintable(QString("%1 at 0x%2 (%3 bytes) is outside %4")
                              .arg(QString::fromStdString(name))
                              .arg(address, 0, 16)
                              .arg(size)
                              .arg(QString::fromStdString(memory.name))));
    }
    QCOMPARE(list.at(".text").second, flash.origin);

    // The BIN starts at the flash origin with the vector table: the initial
    // stack pointer at the top of RAM, then the reset handler in flash (a
    // Thumb address: bit 0 set).
    const std::string image = readText(bin);
    QVERIFY(image.size() > 8);
    QCOMPARE(static_cast<std::uint64_t>(littleEndianWord(image, 0)), ram.origin + ram.size);
    const std::uint32_t reset = littleEndianWord(image, 4);
    QVERIFY((reset & 1u) == 1u);
    QVERIFY(reset > flash.origin && reset < flash.origin + flash.size);
    // The HEX holds the same bytes from the same address: its first data
    // record's first word is the initial stack pointer.
    const std::string hexText = readText(hex);
    QVERIFY(hexText.starts_with(":"));
    QVERIFY(hexText.find(":00000001FF") != std::string::npos);  // end-of-file record
  }

  void flashesWithTheChosenProgrammer_data() {
    QTest::addColumn<QString>("board");
    QTest::addColumn<QString>("programmer");
    for (const char* name : kRealBoards) {
      for (const auto& programmer : board(name).board().flash->programmers) {
        QTest::newRow(qPrintable(QString("%1 %2").arg(name, programmer.name.c_str())))
            << QString(name) << QString::fromStdString(programmer.name);
      }
    }
  }
  void flashesWithTheChosenProgrammer() {
    QFETCH(QString, board);
    QFETCH(QString, programmer);
    const auto& platform = this->board(board);
    const auto& firmware = build(board);
    std::string log;
    auto options = startOptions(programmer.toStdString(), &log);
    options.options["probe_serial"] = "066DFF535155878281101234";
    const auto link = platform.start(firmware.firmware, options);
    QVERIFY(link != nullptr);
    link->close();
    const auto arguments = recordedArguments();
    auto has = [&](const std::string& argument) {
      return std::find(arguments.begin(), arguments.end(), argument) != arguments.end();
    };
    const std::string bin = fs::path(firmware.firmware).replace_extension(".bin").string();
    char origin[16];
    std::snprintf(origin, sizeof origin, "0x%08llx",
                  static_cast<unsigned long long>(platform.board().flash->origin));
    if (programmer == "openocd") {
      for (const auto& argument : platform.board().flash->programmers.front().arguments) {
        QVERIFY2(has(argument), argument.c_str());
      }
      QVERIFY(has("adapter serial 066DFF535155878281101234"));
      QCOMPARE(arguments.back(), "program {" + firmware.firmware.string() + "} verify reset exit");
    } else if (programmer == "st-flash") {
      const std::vector<std::string> expected = {
          "--serial", "066DFF535155878281101234", "--reset", "write", bin, origin};
      QCOMPARE(arguments, expected);
    } else {
      const std::vector<std::string> expected = {"-a", "0", "-s", std::string(origin) + ":leave",
                                                 "-D", bin, "-S", "066DFF535155878281101234"};
      QCOMPARE(arguments, expected);
    }
    // The command and the programmer's output reach the build log.
    QVERIFY2(log.find("$ " + programmer.toStdString()) != std::string::npos, log.c_str());
    QVERIFY2(log.find("Programming Finished") != std::string::npos, log.c_str());
  }

  void aFailedFlashShowsTheProgrammersMessage() {
    const auto& platform = board("nucleo-l4r5zi");
    const auto& firmware = build("nucleo-l4r5zi");
    std::string log;
    qputenv("FAKE_PROGRAMMER_EXIT", "1");
    try {
      platform.start(firmware.firmware, startOptions("st-flash", &log));
      qunsetenv("FAKE_PROGRAMMER_EXIT");
      QFAIL("a failing programmer must fail the start");
    } catch (const DeployError& error) {
      qunsetenv("FAKE_PROGRAMMER_EXIT");
      QCOMPARE(error.kind(), DeployError::Kind::FlashFailed);
      const std::string message = error.what();
      QVERIFY2(message.find("exit status 1") != std::string::npos, error.what());
      QVERIFY2(message.find("Error: open failed (fake st-flash)") != std::string::npos,
               error.what());
      QVERIFY2(message.find("Likely causes: no probe connected") != std::string::npos,
               error.what());
    }
  }

  void aMissingProgrammerNamesItsPackage() {
    const auto& platform = board("stm32f746g-disco");
    const auto& firmware = build("stm32f746g-disco");
    std::string log;
    const fs::path empty = dir_.path().toStdString() + "/empty";
    fs::create_directories(empty);
    qputenv("PATH", QByteArray::fromStdString(empty.string()));
    try {
      platform.start(firmware.firmware, startOptions("st-flash", &log));
      QFAIL("no programmer on PATH must fail the start");
    } catch (const DeployError& error) {
      QCOMPARE(error.kind(), DeployError::Kind::ToolMissing);
      QVERIFY2(std::string(error.what()).find("stlink-tools") != std::string::npos, error.what());
    }
    qputenv("PATH", QByteArray::fromStdString(dir_.path().toStdString() + "/fakes:") + path_);
  }

  void unknownProgrammerAndMissingPortAreRefused() {
    const auto& platform = board("nrf52840-dk");
    const auto& firmware = build("nrf52840-dk");
    std::string log;
    try {
      platform.start(firmware.firmware, startOptions("st-flash", &log));
      QFAIL("the nRF52840 DK has no st-flash");
    } catch (const DeployError& error) {
      QVERIFY2(std::string(error.what()).find("is flashed with openocd") != std::string::npos,
               error.what());
    }
    auto options = startOptions("openocd", &log);
    options.port.clear();
    try {
      platform.start(firmware.firmware, options);
      QFAIL("a real board needs its port");
    } catch (const DeployError& error) {
      QVERIFY2(std::string(error.what()).find("J-Link's virtual COM port") != std::string::npos,
               error.what());
    }
    // A port that is not there is found before flashing, not after.
    const std::string record = dir_.path().toStdString() + "/programmer.log";
    std::filesystem::remove(record);
    options.port = "/dev/ttyLOUPE_NO_SUCH_PORT";
    try {
      platform.start(firmware.firmware, options);
      QFAIL("a port that does not exist must fail the start");
    } catch (const DeployError& error) {
      QVERIFY2(std::string(error.what())
                   .starts_with("the serial port /dev/ttyLOUPE_NO_SUCH_PORT "
                                "does not exist: is nrf52840-dk plugged in?"),
               error.what());
    }
    QVERIFY(!std::filesystem::exists(record));  // the programmer never ran
  }
};

QTEST_GUILESS_MAIN(FlashedBoards)
#include "flashed_boards_test.moc"
