// `requires unified_shared_memory` (gcc 12: "sorry, unimplemented", so usm_linked_list.expected
// holds the output the specification prescribes): a linked list built with malloc on the host
// is traversed and updated in target regions with no map clauses; the device follows the
// host's pointers, and its writes are the host's storage.
#include <stdio.h>
#include <stdlib.h>

#pragma omp requires unified_shared_memory

struct node {
  long value;
  struct node *next;
};

static struct node *build(int n) {
  struct node *head = NULL;
  for (int i = n; i > 0; i--) {
    struct node *p = malloc(sizeof *p);
    p->value = i;
    p->next = head;
    head = p;
  }
  return head;
}

int main(void) {
  struct node *head = build(100);
  long *result = malloc(2 * sizeof *result);
  result[0] = result[1] = -1;

  // Read the list on the device: no map, `head` and `result` keep their host values.
#pragma omp target
  {
    long sum = 0, count = 0;
    for (struct node *p = head; p; p = p->next) {
      sum += p->value;
      count++;
    }
    result[0] = sum;
    result[1] = count;
  }
  printf("device sum=%ld count=%ld\n", result[0], result[1]);

  // Write the list on the device; the host sees the new values without any copy.
#pragma omp target
  for (struct node *p = head; p; p = p->next)
    p->value *= 3;
  long sum = 0;
  for (struct node *p = head; p; p = p->next)
    sum += p->value;
  printf("host sum after device update=%ld\n", sum);

  // Link a node built on the device's side into the host list: the device stores a host
  // pointer it received as a value.
  struct node *extra = malloc(sizeof *extra);
#pragma omp target
  {
    extra->value = 1000;
    extra->next = head->next;
    head->next = extra;
  }
  int n = 0;
  for (struct node *p = head; p && n < 4; p = p->next, n++)
    printf("node %d: %ld\n", n, p->value);

  // Many teams walk the list at once, each counting nodes above a threshold of its own.
  long above[8];
#pragma omp target teams distribute map(from: above)
  for (int t = 0; t < 8; t++) {
    long c = 0;
    for (struct node *p = head; p; p = p->next)
      c += p->value > 40 * t;
    above[t] = c;
  }
  for (int t = 0; t < 8; t++)
    printf("above %d: %ld\n", 40 * t, above[t]);

  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  free(result);
  return 0;
}
