/*
 * sphinx-stream: PocketSphinx hearing a live recording, with the words of the phrase being spoken.
 *
 * What `pocketsphinx_continuous -infile /dev/stdin -time yes` does (the same calls, so the same
 * phrases, words and times), reading 16 kHz mono s16le samples from stdin, plus one line while a
 * phrase goes on, each time its best hypothesis so far changes (checked every PARTIAL_FRAMES of
 * audio):
 *
 *   ~partial <seconds heard> <words so far>
 *
 * and after each phrase "~heard <seconds heard>": how far it had heard when the phrase ended.
 *
 * Each phrase, once the speaker pauses after it, prints its words as pocketsphinx_continuous does:
 * the hypothesis, then "<word> <start> <end> <confidence>" lines framed by <s> and </s>.
 *
 * Built by scripts/build-sphinx-stream.mjs where Debian's libpocketsphinx-dev is installed;
 * without it the server runs pocketsphinx_continuous, and captions wait for each pause.
 */
#include <stdio.h>
#include <string.h>
#include <pocketsphinx.h>

/* 0.5 s of audio (10 ms frames): a new guess no more often than that. */
#define PARTIAL_FRAMES 50

static const arg_t cont_args_def[] = {
    POCKETSPHINX_OPTIONS,
    {"-infile", ARG_STRING, NULL, "Ignored: the audio is read from stdin."},
    {"-time", ARG_BOOLEAN, "no", "Print word times."},
    CMDLN_EMPTY_OPTION
};

static void print_word_times(ps_decoder_t *ps, cmd_ln_t *config)
{
    int frame_rate = cmd_ln_int32_r(config, "-frate");
    ps_seg_t *iter = ps_seg_iter(ps);
    while (iter != NULL) {
        int32 sf, ef, pprob;
        float conf;
        ps_seg_frames(iter, &sf, &ef);
        pprob = ps_seg_prob(iter, NULL, NULL, NULL);
        conf = logmath_exp(ps_get_logmath(ps), pprob);
        printf("%s %.3f %.3f %f\n", ps_seg_word(iter), ((float)sf / frame_rate), ((float)ef / frame_rate), conf);
        iter = ps_seg_next(iter);
    }
}

static void print_phrase(ps_decoder_t *ps, cmd_ln_t *config)
{
    const char *hyp = ps_get_hyp(ps, NULL);
    if (hyp != NULL) printf("%s\n", hyp);
    if (cmd_ln_boolean_r(config, "-time")) print_word_times(ps, config);
    fflush(stdout);
}

int main(int argc, char *argv[])
{
    cmd_ln_t *config = cmd_ln_parse_r(NULL, cont_args_def, argc, argv, TRUE);
    if (config == NULL) return 1;
    ps_default_search_args(config);
    ps_decoder_t *ps = ps_init(config);
    if (ps == NULL) {
        cmd_ln_free_r(config);
        return 1;
    }
    int frame_rate = cmd_ln_int32_r(config, "-frate");
    int samprate = (int)cmd_ln_float32_r(config, "-samprate");
    int16 adbuf[2048];
    size_t k;
    long samples = 0, last_guess = 0;
    char guess[4096] = "";
    uint8 utt_started = FALSE, in_speech;

    ps_start_utt(ps);
    while ((k = fread(adbuf, sizeof(int16), 2048, stdin)) > 0) {
        ps_process_raw(ps, adbuf, k, FALSE, FALSE);
        samples += k;
        in_speech = ps_get_in_speech(ps);
        if (in_speech && !utt_started) {
            utt_started = TRUE;
            last_guess = samples;
        }
        if (!in_speech && utt_started) {
            ps_end_utt(ps);
            print_phrase(ps, config);
            /* How far it had heard when the phrase ended: past the last guess, so captions reach further. */
            printf("~heard %.3f\n", (double)samples / samprate);
            fflush(stdout);
            ps_start_utt(ps);
            utt_started = FALSE;
            guess[0] = '\0';
        } else if (utt_started && (samples - last_guess) * frame_rate >= (long)PARTIAL_FRAMES * samprate) {
            last_guess = samples;
            const char *hyp = ps_get_hyp(ps, NULL);
            if (hyp != NULL && *hyp && strcmp(hyp, guess) != 0) {
                snprintf(guess, sizeof guess, "%s", hyp);
                printf("~partial %.3f %s\n", (double)samples / samprate, guess);
                fflush(stdout);
            }
        }
    }
    ps_end_utt(ps);
    if (utt_started) print_phrase(ps, config);
    ps_free(ps);
    cmd_ln_free_r(config);
    return 0;
}
