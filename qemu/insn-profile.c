// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin (plugin API version 1, QEMU 7.x) that counts the
 * guest's executed kernel instructions per translation block.  Each time
 * the guest executes the first block of the function named by trigger=ADDR
 * (ksys_sync: run `sync` in the guest) it writes a snapshot of the counts,
 * "VADDR INSNS EXECUTIONS" per block, to PREFIX.N; the difference of two
 * snapshots is what the guest did between two syncs
 * (qemu/insn-profile-report.sh).
 *
 *   qemu-system-x86_64 -plugin insn-profile.so,trigger=0xffffffff81234560,out=/tmp/prof
 *
 * The declarations below are the few of the plugin API this uses.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
		void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
		void (*cb)(unsigned int vcpu, void *udata),
		enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
		enum qemu_plugin_op op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One counter per (block start, length): a block may be translated again. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;
	struct block *next;
};

#define NR_BUCKETS (1u << 16)
static struct block *buckets[NR_BUCKETS];
static uint64_t trigger;
static const char *prefix = "insn-profile";
static unsigned int snapshots;

static unsigned int bucket_of(uint64_t vaddr)
{
	return (unsigned int)((vaddr * 0x9e3779b97f4a7c15ULL) >> 48);
}

static struct block *block_for(uint64_t vaddr, uint64_t insns)
{
	struct block **head = &buckets[bucket_of(vaddr)], *b;

	for (b = *head; b; b = b->next)
		if (b->vaddr == vaddr && b->insns == insns)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b) {
		perror("insn-profile");
		exit(1);
	}
	b->vaddr = vaddr;
	b->insns = insns;
	b->next = *head;
	*head = b;
	return b;
}

static void snapshot(unsigned int vcpu, void *udata)
{
	char name[4096];
	struct block *b;
	unsigned int i;
	FILE *f;

	(void)vcpu;
	(void)udata;
	snprintf(name, sizeof(name), "%s.%u", prefix, snapshots++);
	f = fopen(name, "w");
	if (!f) {
		perror(name);
		return;
	}
	for (i = 0; i < NR_BUCKETS; i++)
		for (b = buckets[i]; b; b = b->next)
			if (b->execs)
				fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
					b->vaddr, b->insns, b->execs);
	fclose(f);
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	/* kernel text only: user addresses of different processes collide */
	if (vaddr < 0xffff800000000000ULL)
		return;
	b = block_for(vaddr, qemu_plugin_tb_n_insns(tb));
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	if (vaddr == trigger)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, snapshot,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "trigger=", 8))
			trigger = strtoull(argv[i] + 8, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			prefix = argv[i] + 4;
		else {
			fprintf(stderr, "insn-profile: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	return 0;
}
