; Hipocampo's Windows installer (Inno Setup 6).
;
; Build the bundle first (./dev package, or: pyinstaller packaging\hipocampo.spec), then:
;   iscc installer.iss        (or: python packaging\build_windows.py; on Linux ./dev windows-installer
;                              compiles it under Wine around a stand-in bundle)
; The installer lands in dist\. It installs for the current user (no administrator rights), into
; %LOCALAPPDATA%\Programs\Hipocampo, or with /ALLUSERS for everyone. The memory, settings and logs live in the user's own
; folders (%LOCALAPPDATA%\hipocampo), never beside the program: uninstalling keeps them unless the
; user asks for them to go.

; The version is read from pyproject.toml at build time (the line `version = "x.y.z"` under
; [project]); `iscc /DAppVersion=x.y.z installer.iss` overrides it. The sub defines it `public`: a
; plain #define inside the #sub does not outlive the #for that calls it (Inno Setup 6.4.1 then
; stops with "No version" although the line is there).
#ifndef AppVersion
  #define PyProject FileOpen(AddBackslash(SourcePath) + "pyproject.toml")
  #if !PyProject
    #error pyproject.toml not found beside installer.iss
  #endif
  #define AppVersion ""
  #sub ReadVersionLine
    #define Line Trim(FileRead(PyProject))
    #if Pos('version = "', Line) == 1
      #define public AppVersion Copy(Line, 12, Len(Line) - 12)
    #endif
  #endsub
  #for {0; AppVersion == "" && !FileEof(PyProject); 0} ReadVersionLine
  #expr FileClose(PyProject)
  #if AppVersion == ""
    #error No version = "..." line in pyproject.toml
  #endif
#endif

#define AppName "Hipocampo"
#define AppExe "Hipocampo.exe"
; The bundle to pack: `iscc /DBundle=path\to\Hipocampo installer.iss` packs another one (the
; stand-in folder packaging/build_windows.py lays out on Linux).
#ifndef Bundle
#define Bundle "dist\Hipocampo"
#endif
#define DataDir "{localappdata}\hipocampo"

[Setup]
AppId={{6D0F3C52-6A3B-4B8E-9B0E-5E3A2C8F4D17}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Hipocampo
; {autopf}: Program Files for everyone, or the user's own %LOCALAPPDATA%\Programs (see ProgramsFolder).
DefaultDirName={code:ProgramsFolder}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
; Qt 6 runs on Windows 10 1809 and later.
MinVersion=10.0.17763
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
SetupIconFile={#Bundle}\_internal\resources\icons\hipocampo.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
OutputDir=dist
OutputBaseFilename=Hipocampo-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ChangesAssociations=yes
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "spanish"; MessagesFile: "compiler:Languages\Spanish.isl"

[CustomMessages]
english.StartWithWindows=Start Hipocampo in the tray when I sign in
spanish.StartWithWindows=Iniciar Hipocampo en la bandeja al entrar en Windows
english.OpenWithJsonl=Offer Hipocampo in "Open with" for .jsonl memory files
spanish.OpenWithJsonl=Ofrecer Hipocampo en "Abrir con" para archivos de memoria .jsonl
english.MemoryFile=Hipocampo memory
spanish.MemoryFile=Memoria de Hipocampo
english.RemoveMemory=Also delete your memory, settings and logs (%1)?%n%nChoose No to keep them for a later install.
spanish.RemoveMemory=¿Borrar también tu memoria, ajustes y registros (%1)?%n%nElige No para conservarlos para una instalación posterior.

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "autostart"; Description: "{cm:StartWithWindows}"; Flags: unchecked
Name: "openwith"; Description: "{cm:OpenWithJsonl}"

[InstallDelete]
; An upgrade replaces the bundle whole: a module, DLL or Qt plugin the new version no longer ships
; must not stay behind for it to load. Only the program's own folder; the memory lives elsewhere.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#Bundle}\{#AppExe}"; DestDir: "{app}"; Flags: ignoreversion
Source: "{#Bundle}\_internal\*"; DestDir: "{app}\_internal"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; The same value the app's own "start with the system" setting writes (desktop/autostart.py), so the
; app's settings can turn it off again: always the user's own key.
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "Hipocampo"; ValueData: """{app}\{#AppExe}"" --tray"; Flags: uninsdeletevalue; Tasks: autostart
; "Open with": HKA is the user's own classes, or the machine's when an administrator installs for
; everyone. The command passes the file to the app, which imports it (hipocampo-app FILE…).
Root: HKA; Subkey: "Software\Classes\.jsonl\OpenWithProgids"; ValueType: string; ValueName: "Hipocampo.Memory"; ValueData: ""; Flags: uninsdeletevalue; Tasks: openwith
Root: HKA; Subkey: "Software\Classes\Hipocampo.Memory"; ValueType: string; ValueName: ""; ValueData: "{cm:MemoryFile}"; Flags: uninsdeletekey; Tasks: openwith
Root: HKA; Subkey: "Software\Classes\Hipocampo.Memory\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"; Tasks: openwith
Root: HKA; Subkey: "Software\Classes\Hipocampo.Memory\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""; Tasks: openwith

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallRun]
; Quit a running app (and its tray icon) so its files can be removed.
Filename: "{sys}\taskkill.exe"; Parameters: "/IM {#AppExe} /T /F"; Flags: runhidden; RunOnceId: "StopHipocampo"

[Code]
// {autopf}, as Windows 10 and 11 always expand it. Only a system without the user's Programs
// folder (FOLDERID_UserProgramFiles: Wine, where the installer's tests run) makes it fail; there
// the same folder Windows uses, %LOCALAPPDATA%\Programs, is named by hand.
function ProgramsFolder(Param: String): String;
begin
  try
    Result := ExpandConstant('{autopf}');
  except
    Result := ExpandConstant('{localappdata}\Programs');
  end;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    DataDir := ExpandConstant('{#DataDir}');
    if DirExists(DataDir) and not UninstallSilent() then
      if MsgBox(FmtMessage(CustomMessage('RemoveMemory'), [DataDir]), mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
      begin
        DelTree(DataDir, True, True, True);
        { the window layout Qt keeps in the registry (QSettings "Hipocampo") }
        RegDeleteKeyIncludingSubkeys(HKCU, 'Software\Hipocampo');
      end;
  end;
end;
