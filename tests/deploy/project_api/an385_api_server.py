#!/usr/bin/env python3
"""A third-party Loupe platform, written as a Project API server in Python.

It is what a board vendor would write (docs/project_api.md): Loupe starts it
with the argument list of its platform.json and sends JSON-RPC 2.0 requests
on stdin, one per line; it answers on stdout, one line each. This one builds
the model folder Loupe gives it for the MPS2 AN385 with arm-none-eabi-gcc
(its own commands, not Loupe's Makefile), "flashes" by starting
qemu-system-arm with the UART on a Unix socket, and carries the session's
bytes over that socket. Only the standard library.

Usage: an385_api_server.py PLATFORMS_DIR [MODE]
  PLATFORMS_DIR  Loupe's plugins/platforms (for the AN385's board.h and
                 linker.ld)
  MODE           normal, or for the tests of broken servers: hang (never
                 answers server_info_query), garbage (answers it with a line
                 that is not JSON), crash-on-build (exits with status 3 in
                 build)
"""
import base64
import ctypes
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

CPU_FLAGS = ["-mcpu=cortex-m3", "-mthumb", "-mfloat-abi=soft"]
C_FLAGS = ["-std=c99", "-O2", "-ffreestanding", "-fno-tree-loop-distribute-patterns",
           "-ffunction-sections", "-fdata-sections", "-DTVM_CRT_PROFILING=1"]


class RpcError(Exception):
    pass


def die_with_parent():
    """In QEMU's child before exec: Linux kills it when this server dies,
    even by SIGKILL, so no emulated board outlives the server (Loupe kills
    the server's process group when it can, and the server itself dies with
    Loupe by the same parent-death signal)."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, 9)


class Server:
    def __init__(self, platforms_dir, mode):
        self.platforms_dir = platforms_dir
        self.mode = mode
        self.qemu = None
        self.socket = None
        self.socket_dir = None

    # ---- the methods ----

    def server_info_query(self, params):
        return {
            "platform_name": "python-an385",
            "cpu": "cortex-m3",
            "project_options": [
                {"name": "qemu", "help": "the QEMU to run the board with",
                 "default": "qemu-system-arm"},
            ],
        }

    def generate_project(self, params):
        model_dir, project_dir = params["model_dir"], params["project_dir"]
        os.makedirs(os.path.join(project_dir, "platform"))
        for part in ("model", "runtime"):
            shutil.copytree(os.path.join(model_dir, part), os.path.join(project_dir, part))
        shutil.copy(os.path.join(model_dir, "model_descriptor.c"), os.path.join(project_dir, "platform"))
        firmware = os.path.join(model_dir, "firmware")
        sources = [os.path.join(firmware, "templates", "model_rpc", name)
                   for name in ("board_main.c", "rpc_firmware.c", "rpc_firmware.h", "model_descriptor.h")]
        sources += glob.glob(os.path.join(firmware, "common", "*"))
        sources.append(os.path.join(firmware, "uarts", "cmsdk_uart.c"))
        sources += [os.path.join(self.platforms_dir, "qemu_mps2_an385", name) for name in ("board.h", "linker.ld")]
        for source in sources:
            shutil.copy(source, os.path.join(project_dir, "platform"))
        return {"log": "generated %d platform files" % len(sources)}

    def build(self, params):
        if self.mode == "crash-on-build":
            sys.stderr.write("an385_api_server: crashing in build as asked\n")
            sys.exit(3)
        project = params["project_dir"]
        include = ["-I" + os.path.join(project, d) for d in ("model/include", "runtime/include", "runtime/config", "platform")]
        build_dir = os.path.join(project, "build")
        os.makedirs(build_dir, exist_ok=True)
        log = []

        def compile_all(sources):
            objects, running = [], []
            for index, source in enumerate(sources):
                obj = os.path.join(build_dir, "%d_%s.o" % (index, os.path.basename(source)[:-2]))
                command = ["arm-none-eabi-gcc"] + C_FLAGS + CPU_FLAGS + include + ["-c", source, "-o", obj]
                running.append((command, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
                objects.append(obj)
                if len(running) == 2 or index == len(sources) - 1:
                    for command, process in running:
                        output = process.communicate()[0].decode(errors="replace")
                        log.append(output)
                        if process.returncode != 0:
                            raise RpcError("compiling failed:\n" + " ".join(command) + "\n" + output)
                    running = []
            return objects

        runtime = sorted(glob.glob(os.path.join(project, "runtime/src/*.c")) + glob.glob(os.path.join(project, "runtime/src/*/*.c")))
        archive = os.path.join(build_dir, "libcrt.a")
        subprocess.run(["arm-none-eabi-ar", "rcs", archive] + compile_all(runtime), check=True)
        own = sorted(glob.glob(os.path.join(project, "model/src/*.c")) + glob.glob(os.path.join(project, "platform/*.c")))
        elf = os.path.join(build_dir, "firmware.elf")
        link = (["arm-none-eabi-gcc"] + C_FLAGS + CPU_FLAGS +
                ["-nostartfiles", "--specs=nano.specs", "-T", os.path.join(project, "platform", "linker.ld"),
                 "-Wl,--gc-sections"] + compile_all(own) + [archive, "-lm", "-lc", "-lgcc", "-o", elf])
        done = subprocess.run(link, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0:
            raise RpcError("linking failed:\n" + done.stdout.decode(errors="replace"))
        return {"log": "built %s (%d objects)" % (elf, len(runtime) + len(own))}

    def flash(self, params):
        self.stop_board()
        elf = os.path.join(params["project_dir"], "build", "firmware.elf")
        qemu = params.get("options", {}).get("qemu") or "qemu-system-arm"
        self.socket_dir = tempfile.mkdtemp(prefix="loupe-api-an385-")
        path = os.path.join(self.socket_dir, "uart.sock")
        self.qemu = subprocess.Popen(
            [qemu, "-machine", "mps2-an385", "-display", "none", "-monitor", "none",
             "-icount", "shift=6", "-semihosting-config", "enable=on,target=native",
             "-chardev", "socket,id=uart,path=%s,server=on,wait=on" % path,
             "-serial", "chardev:uart", "-kernel", elf],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=die_with_parent)
        deadline = time.monotonic() + 10
        while not os.path.exists(path):
            if self.qemu.poll() is not None or time.monotonic() > deadline:
                raise RpcError("QEMU did not start: " + self.qemu.stderr.read().decode(errors="replace"))
            time.sleep(0.02)
        return {}

    def open_transport(self, params):
        if self.qemu is None:
            raise RpcError("flash first")
        # QEMU binds the socket's file before it listens: a connection in
        # between is refused, so try again while QEMU is alive.
        deadline = time.monotonic() + 10
        while True:
            self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.socket.connect(os.path.join(self.socket_dir, "uart.sock"))
                return {"timeouts": None}
            except ConnectionRefusedError:
                self.socket.close()
                self.socket = None
                if self.qemu.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def read_transport(self, params):
        self.socket.settimeout(max(float(params.get("timeout_sec", 1.0)), 0.001))
        try:
            data = self.socket.recv(int(params["n"]))
        except socket.timeout:
            data = b""
        else:
            if not data:
                raise RpcError("the board closed its UART")
        return {"data": base64.b64encode(data).decode()}

    def write_transport(self, params):
        self.socket.sendall(base64.b64decode(params["data"]))
        return {}

    def close_transport(self, params):
        self.stop_board()
        return {}

    # ---- plumbing ----

    def stop_board(self):
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        if self.qemu is not None:
            self.qemu.kill()
            self.qemu.wait()
            self.qemu = None
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
            self.socket_dir = None

    def serve(self):
        for line in sys.stdin:
            request = json.loads(line)
            method = request.get("method")
            if method == "server_info_query" and self.mode == "hang":
                time.sleep(3600)
            if method == "server_info_query" and self.mode == "garbage":
                print("hello, this is not JSON", flush=True)
                continue
            try:
                handler = getattr(self, method) if method in METHODS else None
                if handler is None:
                    raise RpcError("no method " + str(method))
                response = {"jsonrpc": "2.0", "id": request.get("id"), "result": handler(request.get("params", {}))}
            except (RpcError, OSError, KeyError, subprocess.CalledProcessError) as error:
                response = {"jsonrpc": "2.0", "id": request.get("id"),
                            "error": {"code": -32000, "message": str(error)}}
            print(json.dumps(response), flush=True)
        self.stop_board()


METHODS = {"server_info_query", "generate_project", "build", "flash", "open_transport",
           "read_transport", "write_transport", "close_transport"}

if __name__ == "__main__":
    Server(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "normal").serve()
