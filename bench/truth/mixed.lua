-- mixed.lua: tgprof's bench (truth): a mixed Lua workload, about 6 s unprofiled.
local N = tonumber(arg and arg[1]) or 1
local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point:add(o) return Point.new(self.x + o.x, self.y + o.y) end
function Point:len2() return self.x * self.x + self.y * self.y end

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end

local seed = 42
local function rand(m) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % m end

local total = 0
for round = 1, 55 * N do
  -- tables and sort with a Lua comparator
  local t = {}
  for i = 1, 60000 do t[i] = {key = rand(100000), name = "k" .. rand(5000)} end
  table.sort(t, function(a, b) if a.key ~= b.key then return a.key < b.key end return a.name < b.name end)
  -- strings: interning, concatenation, patterns
  local words = {}
  for i = 1, 40000 do
    local w = "w" .. (i % 997) .. "_" .. (i % 13)
    words[w] = (words[w] or 0) + 1
  end
  local parts = {}
  for i = 1, 5000 do parts[#parts + 1] = tostring(i) end
  local s = table.concat(parts, ",")
  local n = 0
  for d in s:gmatch("%d+") do n = n + #d end
  s = s:gsub("(%d)(%d)", "%2%1")
  -- objects and closures
  local acc = Point.new(0, 0)
  for i = 1, 150000 do acc = acc:add(Point.new(i % 7, i % 11)) end
  total = total + acc:len2() % 1000 + n + fib(24)
end
print(total)
