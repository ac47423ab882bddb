/* The public interface of a library with an opaque handle: users of it
 * (o_main.c) see only "struct state;", as with lua.h's lua_State. */
#ifndef O_STATE_H
#define O_STATE_H
typedef struct state state;
state *state_new(int depth);
void state_push(state *L, long v);
long state_sum(const state *L);
#endif
