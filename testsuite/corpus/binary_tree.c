/* Binary search tree: insert, lookup, delete (all three cases), height, in/pre/post-order
 * traversals (recursive and with an explicit stack), and freeing the tree. */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

typedef struct tree {
    int key;
    struct tree *left, *right;
} tree;

static tree *insert(tree *t, int key)
{
    if (!t) {
        tree *n = calloc(1, sizeof *n);
        if (!n)
            abort();
        n->key = key;
        return n;
    }
    if (key < t->key)
        t->left = insert(t->left, key);
    else if (key > t->key)
        t->right = insert(t->right, key);
    return t;
}

static bool contains(const tree *t, int key)
{
    while (t && t->key != key)
        t = key < t->key ? t->left : t->right;
    return t != NULL;
}

static tree *delete(tree *t, int key)
{
    if (!t)
        return NULL;
    if (key < t->key) {
        t->left = delete(t->left, key);
    } else if (key > t->key) {
        t->right = delete(t->right, key);
    } else if (!t->left || !t->right) {
        tree *child = t->left ? t->left : t->right;
        free(t);
        return child;
    } else {
        tree *succ = t->right;
        while (succ->left)
            succ = succ->left;
        t->key = succ->key;
        t->right = delete(t->right, succ->key);
    }
    return t;
}

static int height(const tree *t)
{
    if (!t)
        return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void walk(const tree *t, int order)
{
    if (!t)
        return;
    if (order == 0) printf(" %d", t->key);
    walk(t->left, order);
    if (order == 1) printf(" %d", t->key);
    walk(t->right, order);
    if (order == 2) printf(" %d", t->key);
}

static void inorder_iterative(const tree *t)
{
    const tree *stack[64];
    int sp = 0;
    while (t || sp) {
        while (t) {
            stack[sp++] = t;
            t = t->left;
        }
        t = stack[--sp];
        printf(" %d", t->key);
        t = t->right;
    }
}

static void destroy(tree *t)
{
    if (!t)
        return;
    destroy(t->left);
    destroy(t->right);
    free(t);
}

int main(void)
{
    static const int keys[] = {50, 30, 70, 20, 40, 60, 80, 35, 45, 65, 30, 10, 90, 85};
    tree *root = NULL;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        root = insert(root, keys[i]);
    static const char *names[] = {"preorder", "inorder", "postorder"};
    for (int o = 0; o < 3; o++) {
        printf("%s:", names[o]);
        walk(root, o);
        printf("\n");
    }
    printf("iterative:");
    inorder_iterative(root);
    printf("\nheight=%d contains(45)=%d contains(55)=%d\n", height(root), contains(root, 45),
           contains(root, 55));
    root = delete(root, 10); /* leaf */
    root = delete(root, 80); /* one child */
    root = delete(root, 30); /* two children */
    root = delete(root, 50); /* root with two children */
    root = delete(root, 99); /* absent */
    printf("after deletes:");
    walk(root, 1);
    printf("\nroot=%d height=%d\n", root->key, height(root));
    destroy(root);
    return 0;
}
