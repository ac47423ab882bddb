-- work.lua: the workload of the real-software DWARF test
-- (tests/dwarf_realworld_test.go): a little of everything the interpreter
-- does, kept small so that gdb can stop at every call of the probed
-- functions.
local t = {}
for i = 1, 20 do t[i] = i * i end
t.name, t.kind = "squares", 3
local s = 0
for _, v in ipairs(t) do s = s + v end
local words = {}
for w in string.gmatch("the quick brown fox jumps over the lazy dog", "%a+") do
  words[#words + 1] = w:upper()
end
table.sort(words)
local joined = table.concat(words, ",")
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local co = coroutine.wrap(function(a)
  local b = coroutine.yield(a + 1)
  return b * 2
end)
local r1, r2 = co(10), co(7)
local ok, err = pcall(function() error({code = 42}) end)
local f = string.format("%d %s %d %d %d %s", s, joined, fib(12), r1, r2, tostring(ok and 0 or err.code))
local m = setmetatable({}, {__index = function(_, k) return #k end})
print(f, m.hello, #t, string.rep("ab", 3), math.max(3, 9, 4))
