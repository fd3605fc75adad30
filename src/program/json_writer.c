/* json_writer.c - JSON written as it is produced (see json_writer.h). */
#include "program/json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string literal of s. */
static void put_string(bytes *out, const char *s)
{
    bytes_append(out, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            bytes_printf(out, "\\%c", *c);
        else if (*c == '\b' || *c == '\f' || *c == '\n' || *c == '\r' || *c == '\t') /* as cJSON writes them */
            bytes_printf(out, "\\%c", *c == '\b' ? 'b' : *c == '\f' ? 'f' : *c == '\n' ? 'n' : *c == '\r' ? 'r' : 't');
        else if (*c < 0x20)
            bytes_printf(out, "\\u%04x", *c);
        else
            bytes_append(out, c, 1);
    }
    bytes_append(out, "\"", 1);
}

/* The separator and indentation before a new member, and its key. */
static void member(json_writer *w, const char *key)
{
    int d = w->depth;
    if (w->started[d])
        bytes_append(w->out, ",", 1);
    if (!w->inline_[d]) {
        bytes_append(w->out, "\n", 1);
        for (int k = 0; k < d; k++)
            bytes_append(w->out, "\t", 1);
    } else if (w->started[d]) {
        bytes_append(w->out, " ", 1);
    }
    w->started[d] = true;
    if (key) {
        put_string(w->out, key);
        bytes_append(w->out, ":\t", 2);
    }
}

static void open(json_writer *w, const char *key, bool array)
{
    if (w->depth + 1 >= JSON_WRITER_MAX_DEPTH) {
        w->misuse = true;
        return;
    }
    member(w, key);
    bytes_append(w->out, array ? "[" : "{", 1);
    w->depth++;
    /* an array's elements on its line; an object's members one a line, wherever it is */
    w->inline_[w->depth] = array;
    w->array_[w->depth] = array;
    w->started[w->depth] = false;
}

void json_writer_begin(json_writer *w, bytes *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    bytes_append(out, "{", 1);
    w->depth = 1;
}

void json_writer_object(json_writer *w, const char *key) { open(w, key, false); }
void json_writer_array(json_writer *w, const char *key) { open(w, key, true); }

void json_writer_end(json_writer *w)
{
    if (w->depth <= 1) {
        w->misuse = true;
        return;
    }
    bool multiline = !w->inline_[w->depth] && w->started[w->depth], array = w->array_[w->depth];
    w->depth--;
    if (multiline) { /* the closer on a line of its own, at the opener's indentation */
        bytes_append(w->out, "\n", 1);
        for (int k = 0; k < w->depth; k++)
            bytes_append(w->out, "\t", 1);
    }
    bytes_append(w->out, array ? "]" : "}", 1);
}

void json_writer_number(json_writer *w, const char *key, double x)
{
    char buf[32];
    if (!isfinite(x)) { /* never written: the document is refused at finish */
        if (!w->not_finite[0])
            snprintf(w->not_finite, sizeof w->not_finite, "%s", key ? key : "(an array element)");
        x = 0.0;
    }
    member(w, key);
    format_double(buf, x); /* before strlen: arguments have no order */
    bytes_append(w->out, buf, strlen(buf));
}

void json_writer_int(json_writer *w, const char *key, long x)
{
    member(w, key);
    bytes_printf(w->out, "%ld", x);
}

void json_writer_string(json_writer *w, const char *key, const char *s)
{
    member(w, key);
    put_string(w->out, s);
}

void json_writer_null(json_writer *w, const char *key)
{
    member(w, key);
    bytes_append(w->out, "null", 4);
}

void json_writer_item(json_writer *w, const char *key, const cJSON *item)
{
    if (cJSON_IsObject(item) || cJSON_IsArray(item)) { /* laid out as the writer lays out its own */
        open(w, key, cJSON_IsArray(item));
        for (const cJSON *c = item->child; c; c = c->next)
            json_writer_item(w, cJSON_IsObject(item) ? c->string : NULL, c);
        json_writer_end(w);
    } else if (cJSON_IsString(item)) {
        json_writer_string(w, key, item->valuestring);
    } else if (cJSON_IsRaw(item)) { /* evidence.h's numbers: their exact text */
        member(w, key);
        bytes_append(w->out, item->valuestring, strlen(item->valuestring));
    } else if (cJSON_IsNumber(item)) {
        json_writer_number(w, key, item->valuedouble);
    } else if (cJSON_IsBool(item)) {
        member(w, key);
        bytes_printf(w->out, "%s", cJSON_IsTrue(item) ? "true" : "false");
    } else {
        json_writer_null(w, key); /* null, or no item: cJSON ran out of memory building it */
        w->out->failed |= item == NULL;
    }
}

lab_error json_writer_finish(json_writer *w, lab_diag *d)
{
    if (w->misuse || w->depth != 1)
        return diag_fail(d, LAB_ERR_INVALID_ARGUMENT, "JSON writer", "%d levels left open (or nested too deep)",
                         w->depth - 1);
    bytes_append(w->out, "\n}\n", 3);
    if (w->out->failed)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "JSON writer", "%zu bytes of text", w->out->len);
    if (w->not_finite[0])
        return diag_fail(d, LAB_ERR_NOT_FINITE, w->not_finite, "%s", "a NaN or an infinity, never written");
    return LAB_OK;
}
