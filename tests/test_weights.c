/*
 * test_weights.c — the weights format (engine/weights.h): what the writer
 * writes the reader reads back; every built-in file reads; a file cut at
 * any byte, or with a wrong magic, version, kind, type, a name twice or
 * bytes after its end, is refused with a message; tensors are checked by
 * name, type and shape; a move model and a value network are refused as
 * each other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/model_data.h"
#include "engine/weights.h"
#include "tengen/search.h"

static uint8_t *sample(size_t *len)
{
    weights_writer wr;
    weights_writer_begin(&wr, WEIGHTS_VALUE_NET, 9, 15);
    uint32_t dims[2] = {2, 3}, one = 1;
    float f[6] = {1.5f, -2.0f, 0.0f, 3.25f, 1e-30f, -0.0f};
    uint64_t big = 0x0123456789abcdefull;
    weights_writer_add(&wr, "matrix", WEIGHTS_F32, 2, dims, f);
    weights_writer_add(&wr, "key", WEIGHTS_U64, 1, &one, &big);
    uint8_t *bytes = weights_writer_end(&wr, len);
    assert_non_null(bytes);
    return bytes;
}

static void test_round_trip(void **state)
{
    (void)state;
    size_t len;
    uint8_t *bytes = sample(&len);
    weights_file *w = NULL;
    char err[200];
    assert_int_equal(weights_parse(bytes, len, &w, err, sizeof err), TG_OK);
    assert_int_equal(w->kind, WEIGHTS_VALUE_NET);
    assert_int_equal(w->size, 9);
    assert_int_equal(w->komi2, 15);
    assert_int_equal(w->count, 2);
    const weights_tensor *m = weights_get(w, "matrix", WEIGHTS_F32, 2, (const uint32_t[]){2, 0}, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->count, 6);
    assert_true(((const float *)m->data)[3] == 3.25f);
    assert_true(((uintptr_t)m->data & 31) == 0);
    const weights_tensor *k = weights_get(w, "key", WEIGHTS_U64, 1, (const uint32_t[]){1}, err, sizeof err);
    assert_non_null(k);
    assert_true(*(const uint64_t *)k->data == 0x0123456789abcdefull);
    /* by name, type and shape */
    assert_null(weights_get(w, "nothing", WEIGHTS_F32, 1, (const uint32_t[]){0}, err, sizeof err));
    assert_non_null(strstr(err, "no tensor nothing"));
    assert_null(weights_get(w, "matrix", WEIGHTS_U32, 2, (const uint32_t[]){2, 3}, err, sizeof err));
    assert_null(weights_get(w, "matrix", WEIGHTS_F32, 2, (const uint32_t[]){3, 2}, err, sizeof err));
    assert_null(weights_get(w, "matrix", WEIGHTS_F32, 1, (const uint32_t[]){6}, err, sizeof err));
    weights_free(w);
    free(bytes);
}

static void test_every_cut_refused(void **state)
{
    (void)state;
    size_t len;
    uint8_t *bytes = sample(&len);
    for (size_t cut = 0; cut < len; cut++) {
        weights_file *w = (weights_file *)1;
        char err[200] = "";
        assert_int_not_equal(weights_parse(bytes, cut, &w, err, sizeof err), TG_OK);
        assert_null(w);
        assert_non_null(strstr(err, "weights: "));
    }
    free(bytes);
}

static void refused(uint8_t *bytes, size_t len, const char *why)
{
    weights_file *w = NULL;
    char err[200] = "";
    assert_int_not_equal(weights_parse(bytes, len, &w, err, sizeof err), TG_OK);
    if (!strstr(err, why))
        fail_msg("expected '%s', got '%s'", why, err);
}

static void test_malformed_refused(void **state)
{
    (void)state;
    size_t len;
    uint8_t *bytes = sample(&len);
    uint8_t *bad = malloc(len + 1);
    memcpy(bad, bytes, len);
    bad[0] = 'X';
    refused(bad, len, "not a tengen weights file");
    memcpy(bad, bytes, len);
    bad[4] = 2;
    refused(bad, len, "version");
    memcpy(bad, bytes, len);
    bad[8] = 9;
    refused(bad, len, "unknown kind");
    memcpy(bad, bytes, len);
    bad[len] = 0;
    refused(bad, len + 1, "bytes after the last tensor");
    /* the first tensor's type byte: 1 + 6 ("matrix") after the 24-byte header */
    memcpy(bad, bytes, len);
    bad[24 + 1 + 6] = 7;
    refused(bad, len, "unknown tensor type");
    free(bad);
    /* a name twice */
    weights_writer wr;
    weights_writer_begin(&wr, WEIGHTS_MOVE_MODEL, 0, WEIGHTS_ANY_KOMI);
    uint32_t one = 1;
    float x = 1;
    weights_writer_add(&wr, "a", WEIGHTS_F32, 1, &one, &x);
    weights_writer_add(&wr, "a", WEIGHTS_F32, 1, &one, &x);
    size_t twice_len;
    uint8_t *twice = weights_writer_end(&wr, &twice_len);
    refused(twice, twice_len, "named twice");
    free(twice);
    free(bytes);
}

static void test_builtin_files_read(void **state)
{
    (void)state;
    const char *names[] = {"model_main.tgw", "model_small9.tgw", "value9.tgw"};
    for (int i = 0; i < 3; i++) {
        const weights_blob *b = weights_embedded(names[i]);
        assert_non_null(b);
        weights_file *w = NULL;
        char err[200];
        assert_int_equal(weights_parse(b->data, b->length, &w, err, sizeof err), TG_OK);
        model_table t;
        bool model = model_table_from_weights(w, &t, err, sizeof err);
        assert_int_equal(model, i < 2);
        if (model) {
            assert_true(t.shape_count > 100);
            model_table_free(&t);
        }
        weights_free(w);
    }
    assert_null(weights_embedded("nothing.tgw"));
}

static void test_kinds_not_mixed(void **state)
{
    (void)state;
    const weights_blob *model = weights_embedded("model_main.tgw"), *value = weights_embedded("value9.tgw");
    char err[200];
    assert_int_not_equal(tg_search_use_value_net(model->data, model->length, err, sizeof err), TG_OK);
    assert_non_null(strstr(err, "not a value network"));
    assert_int_not_equal(tg_search_use_model(value->data, value->length, err, sizeof err), TG_OK);
    assert_non_null(strstr(err, "not a move model"));
    /* a real one is taken, before any search */
    assert_int_equal(tg_search_use_model(model->data, model->length, err, sizeof err), TG_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_every_cut_refused),
        cmocka_unit_test(test_malformed_refused),
        cmocka_unit_test(test_builtin_files_read),
        cmocka_unit_test(test_kinds_not_mixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
