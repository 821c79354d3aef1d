-- format.lua: tgprof's bench (truth): Lua spending its time in the C library
-- (string.format's snprintf, tostring and tonumber of floats: strtod).
local n, acc, len = 0, 0.0, 0
for i = 1, 1800000 do
  local x = i * 1.37
  local s = string.format("%d %5.2f %-10s %x %g %e|%08.3f", i, x, "k" .. (i % 100), i, x / 7, x * 1e6, x / 3)
  len = len + #s
  local t = tostring(x / 11) .. " " .. tostring(i * 0.5)
  for w in t:gmatch("%S+") do acc = acc + tonumber(w) end
  local u = ("%.3f"):format(acc % 1000):upper():rep(3)
  n = n + #u
end
print(n, len, string.format("%.6g", acc))
