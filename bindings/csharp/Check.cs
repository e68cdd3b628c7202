// The C# binding's test program: the same query as the C and C++ programs
// (each path printed as "path sx sy gx gy cost cells x0 y0 ..." for the Rust
// test to check against the Rust API), the queue, a 2x2 unit, and bad input.
//
//   mcs -out:/tmp/tierpath-check.exe bindings/csharp/Tierpath.cs bindings/csharp/Check.cs
//   LD_LIBRARY_PATH=target/release mono /tmp/tierpath-check.exe data/default.map /tmp
using System;
using System.IO;
using Tierpath;

static class Check
{
    static int failures = 0;

    static void Expect(bool cond, string what)
    {
        if (!cond) { failures++; Console.Error.WriteLine("FAILED: " + what); }
    }

    static void ExpectStatus(Action call, Status want, string what)
    {
        try { call(); Expect(false, what + ": no exception"); }
        catch (TierpathException e) { Expect(e.Status == want, what + ": " + e.Message); }
    }

    static int Main(string[] args)
    {
        if (args.Length < 2) { Console.Error.WriteLine("usage: Check.exe MAP TMPDIR"); return 2; }
        using (var map = Map.Load(args[0]))
        using (var h = Hierarchy.Build(map))
        using (var cache = new Cache())
        using (var queue = new Queue())
        {
            uint width = map.Width, height = map.Height;
            ulong seed = 4242;
            Func<Point> cell = () =>
            {
                for (;;)
                {
                    seed = unchecked(seed * 6364136223846793005UL + 1442695040888963407UL);
                    var p = new Point((uint)(seed >> 33) % width, (uint)(seed >> 13) % height);
                    if (h.IsPassable(p)) return p;
                }
            };
            var ids = new ulong[12];
            var costs = new ulong[12];
            var buffer = new Point[4096];
            for (int q = 0; q < 12; q++)
            {
                Point s = cell(), g = cell();
                var path = h.FindPath(cache, s, g);
                costs[q] = path.Cost;
                ids[q] = queue.Push(h, s, g);
                PathInfo info;
                int n = h.FindPath(cache, s, g, buffer, out info);
                Expect(n == path.Cells.Length && info.Cost == path.Cost, "buffer and handle agree");
                if (!path.Found) continue;
                var line = new System.Text.StringBuilder();
                line.AppendFormat("path {0} {1} {2} {3} {4} {5}", s.X, s.Y, g.X, g.Y, path.Cost, path.Cells.Length);
                foreach (var c in path.Cells) line.AppendFormat(" {0} {1}", c.X, c.Y);
                Console.WriteLine(line);
            }
            while (queue.Pending > 0) Expect(queue.Update(h, 80).Expanded <= 80, "budget kept");
            for (int q = 0; q < ids.Length; q++) Expect(queue.Take(h, ids[q]).Cost == costs[q], "queue answers as FindPath");

            // Contracted: queries search the contraction; still legal, the same reach.
            using (var contracted = Hierarchy.Build(map))
            {
                Expect(!contracted.IsContracted, "built uncontracted");
                contracted.Contract();
                Expect(contracted.IsContracted, "contracted");
                var s0 = cell();
                var g0 = cell();
                Expect(contracted.FindPath(cache, s0, g0).Found == h.FindPath(cache, s0, g0).Found, "the same reach");
                // Contracted as a stage of the build: the same answers.
                var during = BuildSettings.Default();
                Expect(during.Contract == 0, "uncontracted by default");
                during.Contract = 1;
                using (var built = Hierarchy.Build(map, during))
                {
                    Expect(built.IsContracted, "contracted by its build");
                    var fresh = built.FindPath(cache, s0, g0);
                    var later = contracted.FindPath(cache, s0, g0);
                    Expect(fresh.Found == later.Found && fresh.Cost == later.Cost && fresh.Cells.Length == later.Cells.Length, "built contracted answers as contracted afterwards");
                }
            }

            // Cell landmarks: the same reach and cost, exact jump point search at any distance.
            using (var guided = Hierarchy.Build(map))
            {
                Expect(!guided.HasCellLandmarks, "built without cell landmarks");
                ExpectStatus(() => guided.AddCellLandmarks(5), Status.InvalidArgument, "5 cell landmarks");
                Expect(guided.AddCellLandmarks(2), "cell landmarks added");
                Expect(guided.HasCellLandmarks, "guided");
                var s1 = cell();
                var g1 = cell();
                var withLandmarks = guided.FindPath(cache, s1, g1);
                var without = h.FindPath(cache, s1, g1);
                Expect(withLandmarks.Found == without.Found, "guided: the same reach");
            }

            var wall = new Point(0, 0);
            while (h.IsPassable(wall)) wall.X++;
            ExpectStatus(() => h.FindPath(cache, cell(), wall), Status.Blocked, "goal on a wall");
            ExpectStatus(() => Map.Load("/nonexistent/nowhere.map"), Status.Io, "missing map file");
            ExpectStatus(() => h.FindPath(cache, new Point(width + 3, 0), cell()), Status.OffMap, "start off the map");
            // A 2x2 unit on a hierarchy for sizes 1 and 2: the footprint rule
            // holds ("sized 2 path ..." for the Rust test); size 3 is refused.
            var settings = BuildSettings.Default();
            settings.MaxUnitSize = 2;
            using (var h2 = Hierarchy.Build(map, settings))
            {
                Func<Point, bool> fits = p => h2.IsPassable(p) && h2.IsPassable(new Point(p.X + 1, p.Y))
                    && h2.IsPassable(new Point(p.X, p.Y + 1)) && h2.IsPassable(new Point(p.X + 1, p.Y + 1));
                int sized = 0;
                for (int tries = 0; tries < 200 && sized == 0; tries++)
                {
                    Point s = cell(), g = cell();
                    if (!fits(s) || !fits(g)) continue;
                    var path = h2.FindPath(cache, s, g, false, 2);
                    if (!path.Found || path.Cells.Length < 20) continue;
                    bool legal = true;
                    for (int i = 0; i < path.Cells.Length; i++)
                    {
                        Point c = path.Cells[i];
                        legal = legal && fits(c);
                        if (i == 0) continue;
                        Point p = path.Cells[i - 1];
                        if (c.X != p.X && c.Y != p.Y)
                            legal = legal && fits(new Point(c.X, p.Y)) && fits(new Point(p.X, c.Y));
                    }
                    Expect(legal, "the 2x2 unit's path obeys the footprint rule");
                    var line = new System.Text.StringBuilder();
                    line.AppendFormat("sized 2 path {0} {1} {2} {3} {4} {5}", s.X, s.Y, g.X, g.Y, path.Cost, path.Cells.Length);
                    foreach (var c in path.Cells) line.AppendFormat(" {0} {1}", c.X, c.Y);
                    Console.WriteLine(line);
                    sized++;
                }
                Expect(sized == 1, "a 2x2 unit found a long path");
                ExpectStatus(() => h2.FindPath(cache, cell(), cell(), false, 3), Status.InvalidArgument, "a unit size above the hierarchy's");
            }
            var small = new Point[1];
            PathInfo tooSmall;
            Point a = cell(), b = cell();
            if (h.FindPath(cache, a, b).Cells.Length > 1)
                ExpectStatus(() => h.FindPath(cache, a, b, small, out tooSmall), Status.BufferTooSmall, "small buffer");
        }
        Console.WriteLine("C# checks: " + failures + " failed");
        return failures == 0 ? 0 : 1;
    }
}
