/*
 * spirv_opt.cpp - the one C++ file of libtessera: SPIRV-Tools 2023.1, as
 * Debian 12 packages it, has no C interface to its optimizer
 * (spvOptimizerCreate came later), so this shim runs spvtools::Optimizer
 * and hands back plain C data (shader_priv.h). Nothing may throw out of
 * it: every exception becomes an error code.
 */
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <spirv-tools/optimizer.hpp>

extern "C" int tsr_sh_spirv_optimize(const uint32_t *words, size_t count, uint32_t **out,
				     size_t *out_count, char *msg, size_t msg_cap);

static void put_msg(char *msg, size_t cap, const std::string &s)
{
	if (!msg || cap == 0)
		return;
	size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
	std::memcpy(msg, s.data(), n);
	msg[n] = '\0';
}

extern "C" int tsr_sh_spirv_optimize(const uint32_t *words, size_t count, uint32_t **out,
				     size_t *out_count, char *msg, size_t msg_cap)
{
	try {
		spvtools::Optimizer opt(SPV_ENV_UNIVERSAL_1_0);
		std::string diag;
		opt.SetMessageConsumer([&diag](spv_message_level_t level, const char *, const spv_position_t &,
					       const char *m) {
			if (level <= SPV_MSG_ERROR && diag.empty())
				diag = m;
		});
		/* flatten to one function in SSA form (docs/shader-isa.md, "Compiling") */
		const std::vector<std::string> flags = {
			"--merge-return", "--inline-entry-points-exhaustive", "--eliminate-dead-functions",
			"--scalar-replacement=0", "--ssa-rewrite", "--ccp", "--simplify-instructions",
			"--eliminate-dead-branches", "--merge-blocks", "--eliminate-dead-code-aggressive"};
		if (!opt.RegisterPassesFromFlags(flags)) {
			put_msg(msg, msg_cap, "spirv-tools refused the pass list");
			return 1;
		}
		std::vector<uint32_t> result;
		spvtools::OptimizerOptions options;
		options.set_run_validator(false);
		if (!opt.Run(words, count, &result, options)) {
			put_msg(msg, msg_cap, diag.empty() ? std::string("spirv-tools optimizer failed") : diag);
			return 2;
		}
		uint32_t *w = static_cast<uint32_t *>(std::malloc(result.size() * sizeof(uint32_t) + 1));
		if (!w) {
			put_msg(msg, msg_cap, "out of memory");
			return 3;
		}
		std::memcpy(w, result.data(), result.size() * sizeof(uint32_t));
		*out = w;
		*out_count = result.size();
		return 0;
	} catch (...) {
		put_msg(msg, msg_cap, "spirv-tools optimizer threw an exception");
		return 4;
	}
}
