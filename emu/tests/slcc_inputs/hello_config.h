/* Found through slcc's -iquote: the rewritten hello.cu lives in a
 * temporary directory, its quoted includes still resolve beside hello.cu. */
#ifndef HELLO_CONFIG_H
#define HELLO_CONFIG_H
#ifndef BLOCKS
#define BLOCKS 2
#endif
#define THREADS 4
#endif
