/* Bitfields: reads extract with shifts and masks (sign-extended when signed), writes
   read-modify-write the containing unit. */
// run: -fopenmp --device-only --emit=ptx -O2
struct flags {
    unsigned ready : 1;
    unsigned kind : 3;
    int delta : 5;
    unsigned long big : 40;
};
int get_delta(const struct flags *f) { return f->delta; }
unsigned get_kind(const struct flags *f) { return f->kind; }
void set_kind(struct flags *f, unsigned k) { f->kind = k; }
void set_big(struct flags *f, unsigned long v) { f->big = v; f->ready = 1; }
// check: get_delta(
// check: ld.u16 %rs1, [%rd1];
// check: shl.b16 %rs3, %rs1, 7;
// check: shr.s16 %rs5, %rs3, 11;
// check: get_kind(
// check: shr.u16 %rs6, %rs5, 5;
// check: set_kind(
// check: and.b16 %rs4, %rs2, %rs3;
// check: shl.b16 %rs6, %rs1, 1;
// check: or.b16 %rs9, %rs4, %rs8;
// nextln: st.u8 [%rd1], %rs9;
// check: set_big(
// check: shl.b64 %rd7, %rd2, 9;
// check: st.u64 [%rd1], %rd10;
