// The seccomp program every bubblewrap command runs under: the kernel's keyring calls (`add_key`,
// `request_key`, `keyctl`) fail with EPERM, as under Docker's default profile, and everything else is
// allowed. Without it a command reads the agent's session keyring (inherited across exec, and possessed,
// so readable whatever uid the command runs as). bwrap loads it with `--seccomp FD`.
//
// A classic BPF program (`struct sock_filter`: u16 code, u8 jt, u8 jf, u32 k; native byte order, little
// endian on both architectures below) over `struct seccomp_data` (`nr` at 0, `arch` at 4). Layout, one
// section per architecture, each entered only when `arch` matches:
//
//   ld [arch]
//   jeq ARCH, 0, <next section>     (repeated per architecture)
//     ld [nr]
//     jset X32_BIT, <deny>, 0       (x86_64 only: the x32 ABI is refused whole)
//     jeq add_key, <deny>, 0 …      (the three keyring calls)
//     ret ALLOW
//   ret KILL_PROCESS                 (an architecture not listed: nothing runs)
//   deny: ret ERRNO | EPERM

// Instruction classes and modes (linux/bpf_common.h).
const BPF_LD = 0x00;
const BPF_W = 0x00;
const BPF_ABS = 0x20;
const BPF_JMP = 0x05;
const BPF_JEQ = 0x10;
const BPF_JSET = 0x40;
const BPF_K = 0x00;
const BPF_RET = 0x06;

// Return values (linux/seccomp.h) and the errno given.
const SECCOMP_RET_KILL_PROCESS = 0x8000_0000;
const SECCOMP_RET_ERRNO = 0x0005_0000;
const SECCOMP_RET_ALLOW = 0x7fff_0000;
const EPERM = 1;

// Offsets in struct seccomp_data.
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;

/** `AUDIT_ARCH_*` (linux/audit.h): the ELF machine, 64-bit and little-endian flags. */
export const AUDIT_ARCH: Readonly<Record<"X86_64" | "I386" | "AARCH64" | "ARM", number>> = Object.freeze({
  X86_64: 0xc000_003e,
  I386: 0x4000_0003,
  AARCH64: 0xc000_00b7,
  ARM: 0x4000_0028,
});

/** x86_64's x32 ABI marks its syscall numbers with this bit (`__X32_SYSCALL_BIT`). */
export const X32_SYSCALL_BIT = 0x4000_0000;

/**
 * The keyring calls' numbers, per architecture (asm/unistd_64.h, unistd_32.h, asm-generic/unistd.h
 * for aarch64, arch/arm/tools/syscall.tbl): `add_key`, `request_key`, `keyctl`.
 */
export const KEYRING_SYSCALLS: ReadonlyArray<{ arch: number; numbers: readonly number[]; x32: boolean }> = Object
  .freeze([
    { arch: AUDIT_ARCH.X86_64, numbers: [248, 249, 250], x32: true },
    { arch: AUDIT_ARCH.I386, numbers: [286, 287, 288], x32: false },
    { arch: AUDIT_ARCH.AARCH64, numbers: [217, 218, 219], x32: false },
    { arch: AUDIT_ARCH.ARM, numbers: [309, 310, 311], x32: false },
  ]);

/** `process.arch` values whose native calls the program lists. */
export const SECCOMP_HOST_ARCHES: readonly string[] = Object.freeze(["x64", "arm64"]);

/** What the program returns for a refused call. */
export const SECCOMP_DENY: number = SECCOMP_RET_ERRNO | EPERM;

interface Instruction {
  code: number;
  /** Jump targets as labels ("deny", "next"), resolved once the layout is known; 0 = fall through. */
  jt: number | "deny" | "next";
  jf: number | "deny" | "next";
  k: number;
}

const load = (offset: number): Instruction => ({ code: BPF_LD | BPF_W | BPF_ABS, jt: 0, jf: 0, k: offset });
const ret = (value: number): Instruction => ({ code: BPF_RET | BPF_K, jt: 0, jf: 0, k: value });

/**
 * The program's bytes (8 per instruction), ready for `bwrap --seccomp FD`.
 *
 * @returns A fresh copy of the program.
 */
export function keyringSeccompProgram(): Uint8Array {
  // 1. One section per architecture; a failed arch check jumps past its section ("next").
  const sections: Instruction[][] = KEYRING_SYSCALLS.map(({ arch, numbers, x32 }) => [
    { code: BPF_JMP | BPF_JEQ | BPF_K, jt: 0, jf: "next", k: arch },
    load(OFFSET_NR),
    ...(x32 ? [{ code: BPF_JMP | BPF_JSET | BPF_K, jt: "deny" as const, jf: 0, k: X32_SYSCALL_BIT }] : []),
    ...numbers.map((nr): Instruction => ({ code: BPF_JMP | BPF_JEQ | BPF_K, jt: "deny", jf: 0, k: nr })),
    ret(SECCOMP_RET_ALLOW),
  ]);
  // 2. The whole program: load arch, the sections, kill on any other architecture, the deny return last.
  const program: Instruction[] = [
    load(OFFSET_ARCH),
    ...sections.flat(),
    ret(SECCOMP_RET_KILL_PROCESS),
    ret(SECCOMP_DENY),
  ];
  const denyAt = program.length - 1;
  // 3. Resolve labels into forward offsets (from the instruction after the jump).
  const sectionEnds: number[] = [];
  let end = 1;
  for (const section of sections) sectionEnds.push(end += section.length);
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  let section = 0;
  program.forEach((instruction, at) => {
    if (at >= sectionEnds[section]!) section++;
    const resolve = (target: Instruction["jt"]): number => {
      const to = target === "deny" ? denyAt : target === "next" ? sectionEnds[section]! : at + 1 + target;
      const offset = to - at - 1;
      // A jump offset is one byte; the program is far shorter than that.
      if (offset < 0 || offset > 0xff) throw new RangeError("seccomp program too long for a one-byte jump");
      return offset;
    };
    view.setUint16(at * 8, instruction.code, true);
    view.setUint8(at * 8 + 2, resolve(instruction.jt));
    view.setUint8(at * 8 + 3, resolve(instruction.jf));
    view.setUint32(at * 8 + 4, instruction.k, true);
  });
  return bytes;
}
