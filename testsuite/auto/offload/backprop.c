/* In the shape of Rodinia backprop: forward pass of a two-layer perceptron (input -> hidden ->
 * output, sigmoid via exp in a static helper), output and hidden error terms, and the weight
 * adjustment with momentum; the layer loops are parallel over the units of the target layer and
 * the adjustment is collapse(2) over a malloc'ed pointer to a VLA of weights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NIN 256
#define NHID 16
#define NOUT 4
#define EPOCHS 3

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* out[j] = sigmoid(sum_k w[k][j] * in[k]); unit 0 of each layer is the bias input 1.0 */
static void layer_forward(int nin, int nout, const double *in, double *out, double (*w)[nout + 1])
{
#pragma omp parallel for
    for (int j = 1; j <= nout; j++) {
        double sum = 0.0;
        for (int k = 0; k <= nin; k++)
            sum += w[k][j] * in[k];
        out[j] = sigmoid(sum);
    }
}

static void adjust_weights(int nin, int nout, const double *delta, const double *in,
                           double (*w)[nout + 1], double (*oldw)[nout + 1])
{
    const double eta = 0.3, momentum = 0.3;
#pragma omp parallel for collapse(2)
    for (int k = 0; k <= nin; k++)
        for (int j = 1; j <= nout; j++) {
            double dw = eta * delta[j] * in[k] + momentum * oldw[k][j];
            w[k][j] += dw;
            oldw[k][j] = dw;
        }
}

int main(void)
{
    double *in = malloc((NIN + 1) * sizeof *in), *hid = malloc((NHID + 1) * sizeof *hid);
    double *out = malloc((NOUT + 1) * sizeof *out), *target = malloc((NOUT + 1) * sizeof *target);
    double *dout = malloc((NOUT + 1) * sizeof *dout), *dhid = malloc((NHID + 1) * sizeof *dhid);
    double (*w1)[NHID + 1] = malloc((NIN + 1) * sizeof *w1);
    double (*o1)[NHID + 1] = malloc((NIN + 1) * sizeof *o1);
    double (*w2)[NOUT + 1] = malloc((NHID + 1) * sizeof *w2);
    double (*o2)[NOUT + 1] = malloc((NHID + 1) * sizeof *o2);
    for (int k = 0; k <= NIN; k++)
        for (int j = 0; j <= NHID; j++) {
            w1[k][j] = (((k * 31 + j * 17) % 41) - 20) / 400.0;
            o1[k][j] = 0.0;
        }
    for (int k = 0; k <= NHID; k++)
        for (int j = 0; j <= NOUT; j++) {
            w2[k][j] = (((k * 13 + j * 29) % 23) - 11) / 50.0;
            o2[k][j] = 0.0;
        }
    in[0] = hid[0] = 1.0;
    for (int k = 1; k <= NIN; k++)
        in[k] = ((k * 7) % 10) / 10.0;
    for (int j = 1; j <= NOUT; j++)
        target[j] = j % 2 ? 0.9 : 0.1;
    for (int e = 0; e < EPOCHS; e++) {
        layer_forward(NIN, NHID, in, hid, w1);
        layer_forward(NHID, NOUT, hid, out, w2);
        double err_out = 0.0, err_hid = 0.0;
#pragma omp parallel for reduction(+ : err_out)
        for (int j = 1; j <= NOUT; j++) {
            dout[j] = out[j] * (1.0 - out[j]) * (target[j] - out[j]);
            err_out += fabs(dout[j]);
        }
#pragma omp parallel for reduction(+ : err_hid)
        for (int j = 1; j <= NHID; j++) {
            double s = 0.0;
            for (int k = 1; k <= NOUT; k++)
                s += dout[k] * w2[j][k];
            dhid[j] = hid[j] * (1.0 - hid[j]) * s;
            err_hid += fabs(dhid[j]);
        }
        adjust_weights(NHID, NOUT, dout, hid, w2, o2);
        adjust_weights(NIN, NHID, dhid, in, w1, o1);
        printf("epoch %d: output error %.4e hidden error %.4e\n", e, err_out, err_hid);
    }
    layer_forward(NIN, NHID, in, hid, w1);
    layer_forward(NHID, NOUT, hid, out, w2);
    for (int j = 1; j <= NOUT; j++)
        printf("out[%d]=%.6f\n", j, out[j]);
    double wsum = 0.0;
    for (int k = 0; k <= NIN; k++)
        for (int j = 1; j <= NHID; j++)
            wsum += w1[k][j];
    printf("sum(w1)=%.6f\n", wsum);
    free(in);
    free(hid);
    free(out);
    free(target);
    free(dout);
    free(dhid);
    free(w1);
    free(o1);
    free(w2);
    free(o2);
    return 0;
}
