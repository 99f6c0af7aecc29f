// An AVX2-only CPU, natively: loaded with LD_PRELOAD (bench/avx2_only.py), this turns on CPUID faulting
// for the process (arch_prctl ARCH_SET_CPUID, Linux on Intel CPUs that have it) and answers every CPUID
// from a SIGSEGV handler with the AVX-512, VNNI, AMX (and AVX512-BF16/FP16) bits cleared.  Libraries
// that pick kernels from CPUID (onnxruntime's MLAS, numpy) then run their AVX2 code at full speed, where
// qemu -cpu Haswell emulates it about 400x slower.  The registers stay enabled (XGETBV is unchanged);
// code that skips CPUID and just runs AVX-512 would still work, which nothing here does.
#define _GNU_SOURCE
#include <signal.h>
#include <ucontext.h>
#include <asm/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cpuid.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>

static struct sigaction old;

static void handler(int sig, siginfo_t *si, void *ctx_) {
    ucontext_t *ctx = (ucontext_t *)ctx_;
    unsigned char *rip = (unsigned char *)ctx->uc_mcontext.gregs[REG_RIP];
    if (rip[0] == 0x0f && rip[1] == 0xa2) {
        unsigned int leaf = (unsigned int)ctx->uc_mcontext.gregs[REG_RAX];
        unsigned int sub = (unsigned int)ctx->uc_mcontext.gregs[REG_RCX];
        unsigned int a, b, c, d;
        syscall(SYS_arch_prctl, ARCH_SET_CPUID, 1);
        __cpuid_count(leaf, sub, a, b, c, d);
        syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0);
        if (leaf == 7 && sub == 0) {
            b &= ~((1u<<16)|(1u<<17)|(1u<<21)|(1u<<26)|(1u<<27)|(1u<<28)|(1u<<30)|(1u<<31));
            c &= ~((1u<<1)|(1u<<6)|(1u<<11)|(1u<<12)|(1u<<14));
            d &= ~((1u<<2)|(1u<<3)|(1u<<8)|(1u<<22)|(1u<<23)|(1u<<24)|(1u<<25));
        } else if (leaf == 7 && sub == 1) {
#ifdef KEEP_AVX_VNNI
            a &= ~((1u<<5)|(1u<<21)|(1u<<23));  /* AVX-VNNI (bit 4) stays: an Intel desktop since Alder Lake */
#else
            a &= ~((1u<<4)|(1u<<5)|(1u<<21)|(1u<<23));
#endif
            d &= ~((1u<<4)|(1u<<5));
        }
        ctx->uc_mcontext.gregs[REG_RAX] = a;
        ctx->uc_mcontext.gregs[REG_RBX] = b;
        ctx->uc_mcontext.gregs[REG_RCX] = c;
        ctx->uc_mcontext.gregs[REG_RDX] = d;
        ctx->uc_mcontext.gregs[REG_RIP] += 2;
        return;
    }
    sigaction(SIGSEGV, &old, NULL);  // a real fault: let it crash as it would have
}

__attribute__((constructor)) static void init(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, &old);
    if (syscall(SYS_arch_prctl, ARCH_SET_CPUID, 0) != 0) {
        perror("avx2_only: CPUID faulting (ARCH_SET_CPUID) is not available here");
        _exit(3);
    }
}
