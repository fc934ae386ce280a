/* Constant tables and string literals: a const table with a constant initializer is read from
   its .const copy at -O2 (its .global definition stays, for the host and other units); string
   literals stay in the global space. */
// run: -fopenmp --device-only --emit=ptx -O2
static const unsigned short crc_table[8] = {0, 0x1021, 0x2042, 0x3063,
                                            0x4084, 0x50a5, 0x60c6, 0x70e7};
unsigned crc_step(unsigned crc, unsigned char b) { return (crc << 3) ^ crc_table[(crc ^ b) & 7]; }
char digit(int i) { return "0123456789abcdef"[i & 15]; }
// check: .visible .global .align 2 .b8 crc_table[16] = {0, 0, 33, 16,
// check: .const .align 2 .b8 crc_table__const[16] = {0, 0, 33, 16,
// check: .global .align 1 .b8 __str[17] = {48, 49, 50,
// check: crc_step(
// check: mov.u64 $(=%rd\d+), crc_table__const;
// check: ld.const.u16 $(=%rs\d+), [$(=%rd\d+)];
// check: digit(
// check: mov.u64 $(=%rd\d+), __str;
// check: ld.global.u8 $(=%rs\d+), [$(=%rd\d+)];
