#pragma once
/// \file
/// Undoable changes to the price database: add, edit, remove and import prices, and add a
/// user-defined GPU. Each command changes the database through core's API and tells the
/// session, so every page updates; undo and redo restore exactly (ids included).

#include "prices/price_db.h"

#include <QUndoCommand>

#include <vector>

namespace advisor::ui {

class Session;

class AddPriceCommand : public QUndoCommand {
public:
    /// Throws InputError (nothing stored, nothing pushed) when the input is invalid.
    static AddPriceCommand* create(Session& session, const PriceInput& in);
    void undo() override;
    void redo() override;
    std::int64_t priceId() const { return price_.id; }

private:
    AddPriceCommand(Session& session, Price stored);
    Session& session_;
    Price price_;
    bool first_ = true;
};

class EditPriceCommand : public QUndoCommand {
public:
    /// Throws InputError naming the field when `after` is invalid (nothing changed).
    static EditPriceCommand* create(Session& session, std::int64_t id, const PriceInput& after, const QString& what);
    void undo() override;
    void redo() override;

private:
    EditPriceCommand(Session& session, std::int64_t id, PriceInput before, PriceInput after, const QString& what);
    Session& session_;
    std::int64_t id_;
    PriceInput before_;
    PriceInput after_;
    bool first_ = true;
};

class RemovePricesCommand : public QUndoCommand {
public:
    RemovePricesCommand(Session& session, std::vector<std::int64_t> ids);
    void undo() override;
    void redo() override;

private:
    Session& session_;
    std::vector<std::int64_t> ids_;
    std::vector<Price> removed_;
};

/// Pushed after an import has already been applied (in a worker): undo removes its rows.
class ImportPricesCommand : public QUndoCommand {
public:
    ImportPricesCommand(Session& session, std::vector<std::int64_t> addedIds, const QString& file);
    void undo() override;
    void redo() override;

private:
    Session& session_;
    std::vector<std::int64_t> ids_;
    std::vector<Price> removed_;
    bool first_ = true;
};

class AddCustomGpuCommand : public QUndoCommand {
public:
    /// Throws InputError naming the field when the GPU is invalid or its name is taken.
    static AddCustomGpuCommand* create(Session& session, const Gpu& gpu);
    void undo() override;
    void redo() override;
    const std::string& gpuId() const { return id_; }

private:
    AddCustomGpuCommand(Session& session, Gpu gpu, std::string id);
    Session& session_;
    Gpu gpu_;
    std::string id_;
    bool first_ = true;
};

} // namespace advisor::ui
