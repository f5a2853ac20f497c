/* techniques.c - the list of techniques the pipeline can plug in (technique.h). */
#include "techniques/technique.h"

const struct tsr_technique_ops *const tsr_techniques[] = {
	&tsr_technique_tcor,
	&tsr_technique_elimination,
	NULL,
};
