/* Declarations of the device <complex.h> functions (complex/complex.c) and of the routines
 * behind complex `*` and `/` (libgcc's names, device symbols `__ompcc___mul[sd]c3` ...). */
#ifndef OMPCC_COMPLEX_H
#define OMPCC_COMPLEX_H

double _Complex __ompcc___muldc3(double a, double b, double c, double d);
float _Complex __ompcc___mulsc3(float a, float b, float c, float d);
double _Complex __ompcc___divdc3(double a, double b, double c, double d);
float _Complex __ompcc___divsc3(float a, float b, float c, float d);
double __ompcc_cabs(double _Complex z);
float __ompcc_cabsf(float _Complex z);
double __ompcc_carg(double _Complex z);
float __ompcc_cargf(float _Complex z);
double _Complex __ompcc_cpow(double _Complex z, double _Complex w);
float _Complex __ompcc_cpowf(float _Complex z, float _Complex w);
double _Complex __ompcc_cproj(double _Complex z);
float _Complex __ompcc_cprojf(float _Complex z);
double _Complex __ompcc_cexp(double _Complex z);
float _Complex __ompcc_cexpf(float _Complex z);
double _Complex __ompcc_clog(double _Complex z);
float _Complex __ompcc_clogf(float _Complex z);
double _Complex __ompcc_csqrt(double _Complex z);
float _Complex __ompcc_csqrtf(float _Complex z);
double _Complex __ompcc_csin(double _Complex z);
float _Complex __ompcc_csinf(float _Complex z);
double _Complex __ompcc_ccos(double _Complex z);
float _Complex __ompcc_ccosf(float _Complex z);
double _Complex __ompcc_ctan(double _Complex z);
float _Complex __ompcc_ctanf(float _Complex z);
double _Complex __ompcc_csinh(double _Complex z);
float _Complex __ompcc_csinhf(float _Complex z);
double _Complex __ompcc_ccosh(double _Complex z);
float _Complex __ompcc_ccoshf(float _Complex z);
double _Complex __ompcc_ctanh(double _Complex z);
float _Complex __ompcc_ctanhf(float _Complex z);

#endif
