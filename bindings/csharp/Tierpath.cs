// Tierpath.cs: C# binding of tierpath's C ABI (include/tierpath.h) through
// P/Invoke and SafeHandles. Works on Mono, .NET and Unity (C# 7, no unsafe
// code): put libtierpath_ffi.so / tierpath_ffi.dll / libtierpath_ffi.dylib
// (from `cargo build --release -p tierpath-ffi`) where the runtime finds
// native plugins (Unity: Assets/Plugins), and this file among the scripts.
//
// Failures throw TierpathException (its Status and the library's message);
// "no path" is PathResult.Found == false. Share a Map and a Hierarchy between
// threads; give each thread its own Cache and Queue.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Tierpath
{
    /// <summary>Status codes of the C ABI (TierpathStatus).</summary>
    public enum Status
    {
        Ok = 0, NullArgument = 1, InvalidHandle = 2, InvalidArgument = 3, OffMap = 4,
        Blocked = 5, BufferTooSmall = 6, Io = 7, BadMap = 8, BadHierarchy = 9,
        WrongHierarchy = 10, NotReady = 11, Busy = 12, Panic = 13,
    }

    /// <summary>How a query was answered.</summary>
    public enum Method { Unreachable = 0, Near = 1, Hierarchical = 2, Fallback = 3 }

    /// <summary>A cell: column X from the left, row Y from the top.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Point
    {
        public uint X;
        public uint Y;
        public Point(uint x, uint y) { X = x; Y = y; }
        public override string ToString() { return "(" + X + ", " + Y + ")"; }
    }

    /// <summary>What a query found (TierpathPathInfo).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathInfo
    {
        public ulong Cells;
        public ulong Cost;
        public double CostInSteps;
        public ulong AbstractExpanded;
        public ulong FineExpanded;
        public Method Method;
        public byte Found;
        public byte Partial;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QueryOptions
    {
        /// <summary>Non-zero: a partial path when the goal is unreachable.</summary>
        public byte Partial;
        /// <summary>The unit: UnitSize x UnitSize cells, named by its top-left cell (0 or 1: one cell).</summary>
        public uint UnitSize;
    }

    /// <summary>How a hierarchy is built (TierpathBuildSettings); start from BuildSettings.Default().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BuildSettings
    {
        public uint ClusterSize;
        public uint Landmarks;
        public byte KeepPaths;
        /// <summary>The largest unit size served: units of 1x1 up to MaxUnitSize x MaxUnitSize cells.</summary>
        public uint MaxUnitSize;
        /// <summary>Whether queries polish their paths: 0 where the map's obstacles are scattered (the default), 1 always, 2 never.</summary>
        public byte Polish;
        /// <summary>Non-zero: contract the cluster graph as a stage of the build (queries then search the contraction; 0 by default).</summary>
        public byte Contract;
        /// <summary>Where transitions go along entrances: 0 by the map (at the ends only on maps of 768x768 or more where a fifth of the clusters hold no wall; the default), 1 at both ends and at most 8 cells apart, 2 at the ends only.</summary>
        public byte Entrances;

        public static BuildSettings Default()
        {
            BuildSettings s;
            Native.Check(Native.tierpath_build_settings_default(out s), "tierpath_build_settings_default");
            return s;
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct QueueFrame
    {
        public ulong Expanded;
        public uint Completed;
    }

    /// <summary>One map edit: Kind 0 sets passability (Value 0/1), 1 a weight in percent.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Edit
    {
        public Point Cell;
        public int Kind;
        public uint Value;
        public static Edit Passable(Point p, bool open) { return new Edit { Cell = p, Kind = 0, Value = open ? 1u : 0u }; }
        public static Edit Weight(Point p, ushort percent) { return new Edit { Cell = p, Kind = 1, Value = percent }; }
    }

    /// <summary>A failed call: its status and the library's message.</summary>
    public class TierpathException : Exception
    {
        public Status Status { get; private set; }
        public TierpathException(Status status, string call)
            : base(call + ": " + status + ": " + Native.LastError()) { Status = status; }
    }

    /// <summary>A path: its cells and what the query found.</summary>
    public sealed class PathResult
    {
        public Point[] Cells;
        public PathInfo Info;
        public bool Found { get { return Info.Found != 0; } }
        public bool IsPartial { get { return Info.Partial != 0; } }
        public ulong Cost { get { return Info.Cost; } }
    }

    internal static class Native
    {
        const string Lib = "tierpath_ffi";

        internal static void Check(Status s, string call)
        {
            if (s != Status.Ok) throw new TierpathException(s, call);
        }

        internal static byte[] Utf8(string s)
        {
            if (s == null) return null;
            var bytes = Encoding.UTF8.GetBytes(s);
            Array.Resize(ref bytes, bytes.Length + 1);
            return bytes;
        }

        internal static string LastError()
        {
            IntPtr p = tierpath_last_error();
            if (p == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var bytes = new byte[n];
            Marshal.Copy(p, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }

        internal static PathResult TakePath(PathHandle handle)
        {
            using (handle)
            {
                var result = new PathResult();
                Check(tierpath_path_info(handle, out result.Info), "tierpath_path_info");
                result.Cells = new Point[result.Info.Cells];
                UIntPtr n;
                Check(tierpath_path_cells(handle, result.Cells, (UIntPtr)result.Cells.Length, out n), "tierpath_path_cells");
                return result;
            }
        }

        [DllImport(Lib)] internal static extern IntPtr tierpath_last_error();
        [DllImport(Lib)] internal static extern IntPtr tierpath_version();
        [DllImport(Lib)] internal static extern Status tierpath_map_load(byte[] path, out MapHandle map);
        [DllImport(Lib)] internal static extern Status tierpath_map_from_cells(uint width, uint height, byte[] passable, ushort[] weights, out MapHandle map);
        [DllImport(Lib)] internal static extern Status tierpath_map_size(MapHandle map, out uint width, out uint height);
        [DllImport(Lib)] internal static extern Status tierpath_map_free(IntPtr map);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_build(MapHandle map, IntPtr settings, out HierarchyHandle h);
        [DllImport(Lib, EntryPoint = "tierpath_hierarchy_build")] internal static extern Status tierpath_hierarchy_build_with(MapHandle map, ref BuildSettings settings, out HierarchyHandle h);
        [DllImport(Lib)] internal static extern Status tierpath_build_settings_default(out BuildSettings settings);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_load(MapHandle map, byte[] path, out HierarchyHandle h);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_save(HierarchyHandle h, byte[] path);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_passable(HierarchyHandle h, Point cell, out byte passable);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_contract(HierarchyHandle h);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_is_contracted(HierarchyHandle h, out byte contracted);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_add_cell_landmarks(HierarchyHandle h, uint count, out byte added);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_has_cell_landmarks(HierarchyHandle h, out byte has);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_edit(HierarchyHandle h, Edit[] edits, UIntPtr count, IntPtr report);
        [DllImport(Lib)] internal static extern Status tierpath_hierarchy_free(IntPtr h);
        [DllImport(Lib)] internal static extern Status tierpath_cache_new(out CacheHandle cache);
        [DllImport(Lib)] internal static extern Status tierpath_cache_free(IntPtr cache);
        [DllImport(Lib)] internal static extern Status tierpath_find_path(HierarchyHandle h, CacheHandle cache, Point start, Point goal, ref QueryOptions options, [Out] Point[] cells, UIntPtr capacity, out PathInfo info);
        [DllImport(Lib)] internal static extern Status tierpath_find_path_handle(HierarchyHandle h, CacheHandle cache, Point start, Point goal, ref QueryOptions options, out PathHandle path);
        [DllImport(Lib)] internal static extern Status tierpath_nearest_with(HierarchyHandle h, CacheHandle cache, Point start, Point[] targets, UIntPtr count, ref QueryOptions options, out long index, out PathHandle path);
        [DllImport(Lib)] internal static extern Status tierpath_path_info(PathHandle path, out PathInfo info);
        [DllImport(Lib)] internal static extern Status tierpath_path_cells(PathHandle path, [Out] Point[] cells, UIntPtr capacity, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status tierpath_path_free(IntPtr path);
        [DllImport(Lib)] internal static extern Status tierpath_queue_new(out QueueHandle queue);
        [DllImport(Lib)] internal static extern Status tierpath_queue_push(QueueHandle queue, HierarchyHandle h, Point start, Point goal, ref QueryOptions options, out ulong id);
        [DllImport(Lib)] internal static extern Status tierpath_queue_update(QueueHandle queue, HierarchyHandle h, ulong budget, out QueueFrame frame);
        [DllImport(Lib)] internal static extern Status tierpath_queue_pending(QueueHandle queue, out ulong pending);
        [DllImport(Lib)] internal static extern Status tierpath_queue_take(QueueHandle queue, HierarchyHandle h, ulong id, out PathHandle path);
        [DllImport(Lib)] internal static extern Status tierpath_queue_free(IntPtr queue);
    }

    public sealed class MapHandle : SafeHandle
    {
        public MapHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return Native.tierpath_map_free(handle) == Status.Ok; }
    }

    public sealed class HierarchyHandle : SafeHandle
    {
        public HierarchyHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return Native.tierpath_hierarchy_free(handle) == Status.Ok; }
    }

    public sealed class CacheHandle : SafeHandle
    {
        public CacheHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return Native.tierpath_cache_free(handle) == Status.Ok; }
    }

    public sealed class PathHandle : SafeHandle
    {
        public PathHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return Native.tierpath_path_free(handle) == Status.Ok; }
    }

    public sealed class QueueHandle : SafeHandle
    {
        public QueueHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
        protected override bool ReleaseHandle() { return Native.tierpath_queue_free(handle) == Status.Ok; }
    }

    /// <summary>A grid map. Shareable between threads.</summary>
    public sealed class Map : IDisposable
    {
        internal readonly MapHandle Handle;
        Map(MapHandle h) { Handle = h; }

        /// <summary>Loads a Moving AI .map (or terrain text) file.</summary>
        public static Map Load(string path)
        {
            MapHandle h;
            Native.Check(Native.tierpath_map_load(Native.Utf8(path), out h), "tierpath_map_load");
            return new Map(h);
        }

        /// <summary>width * height passability bytes, row by row; weights (percent) may be null.</summary>
        public static Map FromCells(uint width, uint height, byte[] passable, ushort[] weights = null)
        {
            MapHandle h;
            Native.Check(Native.tierpath_map_from_cells(width, height, passable, weights, out h), "tierpath_map_from_cells");
            return new Map(h);
        }

        public uint Width { get { uint w, h; Native.Check(Native.tierpath_map_size(Handle, out w, out h), "tierpath_map_size"); return w; } }
        public uint Height { get { uint w, h; Native.Check(Native.tierpath_map_size(Handle, out w, out h), "tierpath_map_size"); return h; } }
        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Per-thread query scratch.</summary>
    public sealed class Cache : IDisposable
    {
        internal readonly CacheHandle Handle;
        public Cache() { Native.Check(Native.tierpath_cache_new(out Handle), "tierpath_cache_new"); }
        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A preprocessed map. Shareable between threads.</summary>
    public sealed class Hierarchy : IDisposable
    {
        internal readonly HierarchyHandle Handle;
        Hierarchy(HierarchyHandle h) { Handle = h; }

        public static Hierarchy Build(Map map)
        {
            HierarchyHandle h;
            Native.Check(Native.tierpath_hierarchy_build(map.Handle, IntPtr.Zero, out h), "tierpath_hierarchy_build");
            return new Hierarchy(h);
        }

        public static Hierarchy Build(Map map, BuildSettings settings)
        {
            HierarchyHandle h;
            Native.Check(Native.tierpath_hierarchy_build_with(map.Handle, ref settings, out h), "tierpath_hierarchy_build");
            return new Hierarchy(h);
        }

        public static Hierarchy Load(Map map, string path)
        {
            HierarchyHandle h;
            Native.Check(Native.tierpath_hierarchy_load(map.Handle, Native.Utf8(path), out h), "tierpath_hierarchy_load");
            return new Hierarchy(h);
        }

        public void Save(string path) { Native.Check(Native.tierpath_hierarchy_save(Handle, Native.Utf8(path)), "tierpath_hierarchy_save"); }

        /// <summary>Contracts the cluster graph: queries then search the contraction (long queries several times faster) until an edit changes the cluster graph's arcs or costs. Takes about 350 ms on a 1024x1024 map; other threads' queries go on meanwhile.</summary>
        public void Contract() { Native.Check(Native.tierpath_hierarchy_contract(Handle), "tierpath_hierarchy_contract"); }

        /// <summary>Whether queries search a contraction (Contract, or a file saved contracted; false after an edit that changed the cluster graph).</summary>
        public bool IsContracted
        {
            get
            {
                byte b;
                Native.Check(Native.tierpath_hierarchy_is_contracted(Handle, out b), "tierpath_hierarchy_is_contracted");
                return b != 0;
            }
        }

        /// <summary>Adds every cell's distance from count landmarks (1 to 4): queries for units of one cell are then answered by exact jump point search at any distance, within its budget (on maps like Dragon Age's, long queries about twice as fast). False when the map cannot take them (terrain weights). Saved with the hierarchy and kept by edits (a terrain weight drops them).</summary>
        public bool AddCellLandmarks(uint count)
        {
            byte b;
            Native.Check(Native.tierpath_hierarchy_add_cell_landmarks(Handle, count, out b), "tierpath_hierarchy_add_cell_landmarks");
            return b != 0;
        }

        /// <summary>Whether cell landmarks guide the queries (AddCellLandmarks, or a file saved with them).</summary>
        public bool HasCellLandmarks
        {
            get
            {
                byte b;
                Native.Check(Native.tierpath_hierarchy_has_cell_landmarks(Handle, out b), "tierpath_hierarchy_has_cell_landmarks");
                return b != 0;
            }
        }

        public bool IsPassable(Point p)
        {
            byte b;
            Native.Check(Native.tierpath_hierarchy_passable(Handle, p, out b), "tierpath_hierarchy_passable");
            return b != 0;
        }

        /// <summary>A path from start to goal for a unit of unitSize x unitSize cells (Found false when unreachable).</summary>
        public PathResult FindPath(Cache cache, Point start, Point goal, bool partial = false, uint unitSize = 1)
        {
            var options = new QueryOptions { Partial = partial ? (byte)1 : (byte)0, UnitSize = unitSize };
            PathHandle path;
            Native.Check(Native.tierpath_find_path_handle(Handle, cache.Handle, start, goal, ref options, out path), "tierpath_find_path_handle");
            return Native.TakePath(path);
        }

        /// <summary>Finds a path into a caller buffer (no allocation): returns the cells written, or throws BufferTooSmall (Info.Cells says how many are needed).</summary>
        public int FindPath(Cache cache, Point start, Point goal, Point[] buffer, out PathInfo info)
        {
            var options = new QueryOptions();
            Native.Check(Native.tierpath_find_path(Handle, cache.Handle, start, goal, ref options, buffer, (UIntPtr)buffer.Length, out info), "tierpath_find_path");
            return (int)info.Cells;
        }

        /// <summary>The index of the target nearest to start by path for a unit of unitSize cells (-1 when none is reachable).</summary>
        public long Nearest(Cache cache, Point start, Point[] targets, out PathResult path, uint unitSize = 1)
        {
            long index;
            PathHandle h;
            var options = new QueryOptions { UnitSize = unitSize };
            Native.Check(Native.tierpath_nearest_with(Handle, cache.Handle, start, targets, (UIntPtr)targets.Length, ref options, out index, out h), "tierpath_nearest_with");
            path = Native.TakePath(h);
            return index;
        }

        /// <summary>Applies edits as one batch and repairs the hierarchy.</summary>
        public void Apply(Edit[] edits)
        {
            Native.Check(Native.tierpath_hierarchy_edit(Handle, edits, (UIntPtr)edits.Length, IntPtr.Zero), "tierpath_hierarchy_edit");
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Path requests served oldest first within a per-frame budget. One thread at a time.</summary>
    public sealed class Queue : IDisposable
    {
        internal readonly QueueHandle Handle;
        public Queue() { Native.Check(Native.tierpath_queue_new(out Handle), "tierpath_queue_new"); }

        public ulong Push(Hierarchy h, Point start, Point goal, bool partial = false, uint unitSize = 1)
        {
            ulong id;
            var options = new QueryOptions { Partial = partial ? (byte)1 : (byte)0, UnitSize = unitSize };
            Native.Check(Native.tierpath_queue_push(Handle, h.Handle, start, goal, ref options, out id), "tierpath_queue_push");
            return id;
        }

        /// <summary>Call once per frame with that frame's budget of expansions.</summary>
        public QueueFrame Update(Hierarchy h, ulong budget)
        {
            QueueFrame frame;
            Native.Check(Native.tierpath_queue_update(Handle, h.Handle, budget, out frame), "tierpath_queue_update");
            return frame;
        }

        public ulong Pending { get { ulong n; Native.Check(Native.tierpath_queue_pending(Handle, out n), "tierpath_queue_pending"); return n; } }

        /// <summary>The answer to request id; throws NotReady while it is not answered.</summary>
        public PathResult Take(Hierarchy h, ulong id)
        {
            PathHandle path;
            Native.Check(Native.tierpath_queue_take(Handle, h.Handle, id, out path), "tierpath_queue_take");
            return Native.TakePath(path);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
